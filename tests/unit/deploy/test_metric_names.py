"""The alert rules and the Grafana dashboard name only metrics the code exports, so they
cannot drift from the code unnoticed."""

from __future__ import annotations

import re

import deploy_files as D


def _unknown(exprs: list[tuple[str, str]], known: set[str]) -> list[str]:
    return [
        f"{where}: {name}"
        for where, expr in exprs
        for name in sorted(D.names_in(expr))
        if name not in known
    ]


def test_alert_rules_use_only_registered_metrics():
    exprs = [(rule["alert"], rule["expr"]) for rule in D.alert_rules()]
    assert len(exprs) >= 5
    assert not _unknown(exprs, D.known_names())


def test_dashboard_uses_only_registered_metrics():
    exprs = D.dashboard_exprs()
    assert len(exprs) >= 30
    assert not _unknown(exprs, D.known_names())


def test_dashboard_step_stats_are_produced_by_the_learner():
    used = {m for _, expr in D.dashboard_exprs() for m in re.findall(r'stat="([^"]+)"', expr)}
    assert {
        "reward",
        "correct",
        "fast@1",
        "fast@1.2",
        "coverage",
        "entropy",
        "kl_to_start",
        "status_hack",
        "hacks_rewarded",
    } <= used
    assert used - D.learner_step_stats() == set()


def test_the_name_check_catches_a_misspelt_or_misattributed_metric():
    known = D.known_names()
    exprs = [
        ("typo", "rate(krl_learner_steps_totl[5m])"),
        ("wrong role", "krl_broker_idle_seconds_total"),
        ("histogram base name", "krl_learner_group_staleness_versions > 2"),
        ("fine", "histogram_quantile(0.9, rate(krl_broker_queue_wait_seconds_bucket[5m]))"),
    ]
    assert _unknown(exprs, known) == [
        "typo: krl_learner_steps_totl",
        "wrong role: krl_broker_idle_seconds_total",
        "histogram base name: krl_learner_group_staleness_versions",
    ]


def test_source_scan_attributes_names_to_the_process_that_registers_them():
    names = D.registered_in_source()
    assert "krl_learner_steps_total" in names  # learner/main.py
    assert "krl_learner_group_staleness_versions_bucket" in names  # learner/hub.py
    assert "krl_broker_queue_depth" in names and "krl_evaluator_queue_depth" not in names
    assert "krl_evaluator_evaluations_total" in names  # evaluator/worker.py
    assert {f"krl_{r}_messages_rejected_total" for r in D.ROLES} <= names  # common/transport.py
