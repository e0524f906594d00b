"""promtool accepts the alert rules, both scrape configs and every dashboard query.

Debian's promtool is built without Kubernetes discovery; the cluster config is then
checked with its `kubernetes_sd_configs` swapped for a file SD, which still checks every
relabelling rule (regexes, actions, labels) and the rule file reference.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import deploy_files as D
import pytest
import yaml

pytestmark = pytest.mark.skipif(D.PROMTOOL is None, reason=D.NO_PROMETHEUS)
PROM = D.DEPLOY / "prometheus"


def _promtool(*args: str, cwd: Path = PROM) -> subprocess.CompletedProcess:
    return subprocess.run([D.PROMTOOL, *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def test_alert_rules_load():
    res = _promtool("check", "rules", "alerts.yml")
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"SUCCESS: {len(D.alert_rules())} rules found" in res.stdout


def test_alert_rules_cover_the_failures_an_operator_must_hear_about():
    exprs = {rule["alert"]: rule["expr"] for rule in D.alert_rules()}
    assert "up{" in exprs["KrlRoleDown"]
    assert "krl_learner_steps_total" in exprs["KrlLearnerNoProgress"]
    assert "krl_learner_idle_seconds_total" in exprs["KrlLearnerIdle"]
    assert 'status="crashed"' in exprs["KrlEvaluatorErrorRate"]
    assert "krl_learner_group_staleness_versions_bucket" in exprs["KrlGroupStalenessHigh"]
    for rule in D.alert_rules():
        assert rule["labels"]["severity"] in ("critical", "warning"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]


def test_local_scrape_config_is_valid_and_has_one_job_per_role():
    res = _promtool("check", "config", "prometheus.yml")
    assert res.returncode == 0, res.stdout + res.stderr
    jobs = {
        j["job_name"]
        for j in yaml.safe_load((PROM / "prometheus.yml").read_text())["scrape_configs"]
    }
    assert jobs == {f"krl-{r}" for r in D.ROLES}


def test_kubernetes_scrape_config_is_valid(tmp_path):
    cfg = yaml.safe_load((PROM / "prometheus-kubernetes.yml").read_text())
    (job,) = cfg["scrape_configs"]
    assert job["kubernetes_sd_configs"][0]["role"] == "pod"
    (tmp_path / "alerts.yml").write_text((PROM / "alerts.yml").read_text())
    path = tmp_path / "prometheus-kubernetes.yml"
    path.write_text(yaml.safe_dump(cfg))
    res = _promtool("check", "config", path.name, cwd=tmp_path)
    if "field kubernetes_sd_configs not found" in res.stdout + res.stderr:
        job["file_sd_configs"] = [{"files": ["targets/*.json"]}]
        del job["kubernetes_sd_configs"]
        path.write_text(yaml.safe_dump(cfg))
        res = _promtool("check", "config", path.name, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


def test_every_dashboard_query_parses(tmp_path):
    exprs = D.dashboard_exprs()
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"krl_dashboard_query_{i}", "expr": expr}
                    for i, (_, expr) in enumerate(exprs)
                ],
            }
        ]
    }
    (tmp_path / "dashboard.yml").write_text(yaml.safe_dump(rules))
    res = _promtool("check", "rules", "dashboard.yml", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


def test_a_broken_query_is_caught(tmp_path):
    (tmp_path / "bad.yml").write_text(
        yaml.safe_dump(
            {
                "groups": [
                    {
                        "name": "g",
                        "rules": [
                            {
                                "record": "x",
                                "expr": "sum by (job (rate(krl_learner_steps_total[5m]))",
                            }
                        ],
                    }
                ]
            }
        )
    )
    assert _promtool("check", "rules", "bad.yml", cwd=tmp_path).returncode != 0
