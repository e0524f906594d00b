"""What the deploy tests read: the files under deploy/, the metric names the code registers,
and the PromQL expressions of the alert rules and the Grafana dashboard.

Registered names come from the source (every `.counter("x")`, `.gauge("x")`,
`.histogram("x")` call with a literal name), attributed to a role by where the call is:
learner/ -> learner, evaluator/broker* -> broker, the rest of evaluator/ -> evaluator,
actor/ -> actor, common/ (transport, eval client) -> every role. The process collector's
names come from a real `common.metrics.Metrics` registry.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
ROLES = ("learner", "broker", "evaluator", "actor")
KINDS = ("counter", "gauge", "histogram")
# Series Prometheus itself attaches to every target.
BUILTIN_SERIES = {"up", "scrape_duration_seconds", "scrape_samples_scraped"}
# Grafana's variables, replaced by durations Prometheus accepts.
GRAFANA_VARS = {"$__rate_interval": "1m", "$__range": "5m", "$__interval": "15s"}
PROMQL_NAME = re.compile(r"\b(krl_[a-z0-9_]+)\b")

PROMTOOL = shutil.which("promtool")
PROMETHEUS = shutil.which("prometheus")
NO_PROMETHEUS = (
    "promtool/prometheus not on PATH: install Debian's `prometheus` package "
    "(apt-get install -y prometheus), as `make test` does"
)


def roles_of(path: Path) -> tuple[str, ...]:
    rel = path.relative_to(ROOT).as_posix()
    if rel.startswith("evaluator/broker"):
        return ("broker",)
    if rel == "common/eval_client.py":  # the evaluator service's client runs in the actor
        return ("actor",)
    top = rel.split("/", 1)[0]
    return ROLES if top == "common" else (top,) if top in ROLES else ()


def _exposed(full: str, kind: str) -> set[str]:
    return {f"{full}_bucket", f"{full}_sum", f"{full}_count"} if kind == "histogram" else {full}


def registered_in_source(root: Path = ROOT) -> set[str]:
    """Every series name the code can export, from literal metric registrations."""
    names: set[str] = set()
    for package in ("common", "actor", "learner", "evaluator"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in KINDS
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    for role in roles_of(ROOT / path.relative_to(root)):
                        names |= _exposed(f"krl_{role}_{node.args[0].value}", node.func.attr)
    return names


def process_collector_names() -> set[str]:
    from common.metrics import Metrics

    return {
        s.name for role in ROLES for fam in Metrics(role).registry.collect() for s in fam.samples
    }


def known_names() -> set[str]:
    return registered_in_source() | process_collector_names() | BUILTIN_SERIES


def learner_step_stats() -> set[str]:
    """Values of the `stat` label of krl_learner_step_stat that the learner can produce."""
    from learner.batch import FAST_THRESHOLDS, STATUSES

    names = {f"fast@{p:g}" for p in FAST_THRESHOLDS} | {f"status_{s}" for s in STATUSES}
    for path in sorted((ROOT / "learner").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr in ("add", "total", "set", "add_many") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
                elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                    names.add(str(first.values[0].value).removesuffix("_turn"))
            elif node.func.attr == "update":  # out.update(grad_norm=..., step_seconds=...)
                names |= {k.arg for k in node.keywords if k.arg}
    return names


def alert_rules() -> list[dict]:
    doc = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    return [rule for group in doc["groups"] for rule in group["rules"]]


def dashboard() -> dict:
    return json.loads((DEPLOY / "grafana" / "krl-dashboard.json").read_text())


def dashboard_panels() -> list[dict]:
    out = []
    for panel in dashboard()["panels"]:
        out.append(panel)
        out.extend(panel.get("panels", []))  # collapsed rows hold their panels
    return out


def dashboard_exprs() -> list[tuple[str, str]]:
    """(panel title, PromQL with Grafana's variables substituted) for every query."""
    out = []
    for panel in dashboard_panels():
        for target in panel.get("targets", []):
            expr = target["expr"]
            for var, value in GRAFANA_VARS.items():
                expr = expr.replace(var, value)
            out.append((panel["title"], expr))
    return out


def names_in(expr: str) -> set[str]:
    """Metric names in a PromQL expression (krl_* identifiers, and `up`)."""
    names = set(PROMQL_NAME.findall(expr))
    if re.search(r"\bup\s*[{\[)]|\bup\s*==", expr):
        names.add("up")
    return names
