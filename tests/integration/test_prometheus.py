"""A real Prometheus (Debian's `prometheus` package) scrapes real krl processes on loopback:
`krl broker`, one `krl evaluator` worker and the learner started through
deploy/learner-launch.sh (DeepSpeed's launcher, one CPU rank, a tiny model; with no
actor it waits for data, which still exports its series).

Prometheus runs the scrape jobs and alert rules of deploy/prometheus/ (targets rewritten
to this test's ports; the krl-actor job points at a port nobody serves, so KrlRoleDown
must go active for that job and no other). Asserted through Prometheus' HTTP API: every
role's key series are there, counters advance (learner idle seconds while it waits;
broker and worker counters for evaluation requests sent with common.eval_client), every
rule loads and evaluates, and every dashboard query runs. Finally SIGTERM to the launch
script stops the learner with a final checkpoint.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import yaml
from proc_helpers import free_port as _port

from common.config import RunConfig, load
from common.eval_client import EvalClient
from common.messages import EvalSettings, new_id
from common.problemset import builtin_problem, to_payload

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "unit" / "deploy"))
sys.path.insert(0, str(ROOT / "tests" / "unit" / "learner"))
import deploy_files as D  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(D.PROMETHEUS is None, reason=D.NO_PROMETHEUS)]

# Series each role must export from the start (labelled counters appear once counted).
KEY_SERIES = {
    "learner": [
        "krl_learner_steps_total",
        "krl_learner_idle_seconds_total",
        "krl_learner_busy_seconds_total",
        "krl_learner_policy_version",
        "krl_learner_buffer_groups",
        "krl_learner_leases_in_flight",
        "krl_learner_actors_alive",
        "krl_learner_weight_publish_seconds_count",
        "krl_learner_group_staleness_versions_bucket",
        "krl_learner_process_start_time_seconds",
    ],
    "broker": [
        "krl_broker_workers",
        "krl_broker_queue_depth",
        "krl_broker_free_slots",
        "krl_broker_request_latency_seconds_bucket",
        "krl_broker_worker_deaths_total",
        "krl_broker_process_start_time_seconds",
    ],
    "evaluator": [
        "krl_evaluator_slots",
        "krl_evaluator_busy_slots",
        "krl_evaluator_gpu_busy_ratio",
        "krl_evaluator_evaluations_total",
        "krl_evaluator_children_total",
        "krl_evaluator_process_start_time_seconds",
    ],
}
STARTUP_S = 240  # the learner imports DeepSpeed twice (launcher, rank) on a shared 2-core machine


def _until(cond, timeout: float, what: str, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


class Stack:
    """The krl processes and Prometheus this module starts, and Prometheus' API."""

    def __init__(self, tmp: Path):
        self.tmp, self.procs = tmp, {}
        self.ports = {
            name: _port()
            for name in (
                "learner",
                "broker",
                "evaluator",
                "actor",
                "hub",
                "publish",
                "frontend",
                "backend",
                "prometheus",
            )
        }
        from learner_helpers import make_tiny_model

        p = self.ports
        self.run_dir = tmp / "run"
        tree = {
            "run_dir": str(self.run_dir),
            "transport": {"heartbeat_interval_s": 0.5},
            "hub_link": {
                "endpoint": f"tcp://127.0.0.1:{p['hub']}",
                "publish_endpoint": f"tcp://127.0.0.1:{p['publish']}",
            },
            "broker": {
                "frontend": f"tcp://127.0.0.1:{p['frontend']}",
                "backend": f"tcp://127.0.0.1:{p['backend']}",
                "metrics": {"port": p["broker"]},
            },
            "evaluator": {
                "device": "cpu",
                "children": 1,
                "metrics": {"port": p["evaluator"]},
                "worker": {"worker_id": "w0", "warm_up": False},
            },
            "learner": {
                "max_steps": 2,
                "groups_per_step": 2,
                "dataset": "builtin:activation",
                "n_samples": 2,
                "max_turns": 1,
                "metrics": {"port": p["learner"]},
                "trainer": {
                    "model": make_tiny_model(tmp / "model"),
                    "zero_stage": 0,
                    "micro_batch_tokens": 256,
                },
            },
        }
        self.cfg_path = tmp / "run.yaml"
        self.cfg_path.write_text(yaml.safe_dump(tree))
        self.cfg = load(self.cfg_path, [], RunConfig)

    # ------------------------------------------------------------------ processes
    def spawn(self, name: str, argv: list[str], env: dict | None = None) -> None:
        log = open(self.tmp / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(
            argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )

    def start(self) -> None:
        krl = [sys.executable, "-m", "launcher.cli"]
        self.spawn("broker", [*krl, "broker", str(self.cfg_path)])
        self.spawn("evaluator", [*krl, "evaluator", str(self.cfg_path)])
        # A fresh single-rank learner: no launcher variables inherited from this process.
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
        }
        env.update(
            PATH=f"{Path(sys.executable).parent}:{env['PATH']}",
            KRL_LEARNER_HOSTS="127.0.0.1",
            KRL_NODE_RANK="0",
            KRL_GPUS_PER_NODE="1",
            KRL_MASTER_PORT=str(_port()),
        )
        self.spawn(
            "learner", ["bash", str(D.DEPLOY / "learner-launch.sh"), str(self.cfg_path)], env
        )
        self.spawn(
            "prometheus",
            [
                D.PROMETHEUS,
                f"--config.file={self._prometheus_config()}",
                f"--storage.tsdb.path={self.tmp / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{self.ports['prometheus']}",
                "--log.level=warn",
            ],
        )

    def _prometheus_config(self) -> Path:
        """deploy/prometheus/prometheus.yml with this test's ports and a 1 s cadence."""
        cfg = yaml.safe_load((D.DEPLOY / "prometheus" / "prometheus.yml").read_text())
        cfg["global"].update(scrape_interval="1s", scrape_timeout="1s", evaluation_interval="1s")
        cfg["rule_files"] = [str(D.DEPLOY / "prometheus" / rf) for rf in cfg["rule_files"]]
        for job in cfg["scrape_configs"]:
            role = job["job_name"].removeprefix("krl-")
            job["static_configs"] = [
                {
                    "targets": [f"127.0.0.1:{self.ports[role]}"],
                    "labels": job["static_configs"][0]["labels"],
                }
            ]
        path = self.tmp / "prometheus.yml"
        path.write_text(yaml.safe_dump(cfg))
        return path

    def alive(self, name: str) -> bool:
        return self.procs[name].poll() is None

    def log_tail(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")[-3000:]

    def stop(self, name: str, timeout: float = 60) -> int:
        proc = self.procs[name]
        kids = _descendants(proc.pid)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for pid in kids:  # the launcher's ranks, if the script left any behind
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return proc.returncode

    # ------------------------------------------------------------------ Prometheus API
    def api(self, path: str, **params) -> dict:
        url = f"http://127.0.0.1:{self.ports['prometheus']}/api/v1/{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.loads(r.read())
        assert body["status"] == "success", body
        return body["data"]

    def query(self, expr: str) -> list[dict]:
        return self.api("query", query=expr)["result"]

    def value(self, expr: str) -> float | None:
        result = self.query(expr)
        return float(result[0]["value"][1]) if result else None

    def up(self) -> dict[str, float]:
        return {r["metric"]["job"]: float(r["value"][1]) for r in self.query('up{job=~"krl-.+"}')}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    s = Stack(tmp_path_factory.mktemp("prometheus"))
    s.start()
    try:

        def all_up():
            for name in s.procs:
                assert s.alive(name), f"{name} exited:\n{s.log_tail(name)}"
            try:
                up = s.up()
            except OSError:  # Prometheus still starting
                return False
            return all(up.get(f"krl-{r}") == 1 for r in ("learner", "broker", "evaluator"))

        t0 = time.monotonic()
        _until(all_up, STARTUP_S, "every krl target up in Prometheus", every=1)
        print(f"all targets up after {time.monotonic() - t0:.0f}s")
        yield s
    finally:
        for name in ("prometheus", "evaluator", "broker", "learner"):
            s.stop(name)


def test_every_role_is_scraped_and_exports_its_key_series(stack):
    assert stack.up() == {"krl-learner": 1, "krl-broker": 1, "krl-evaluator": 1, "krl-actor": 0}
    missing = [name for names in KEY_SERIES.values() for name in names if not stack.query(name)]
    assert not missing, f"series absent in Prometheus: {missing}"
    assert stack.value('krl_broker_workers{job="krl-broker"}') == 1  # the worker registered
    # Version 0 is published just after the learner's metrics server starts (metrics first, so
    # a slow first publish is visible), so a scrape can land between the two: wait for it.
    _until(
        lambda: (stack.value("krl_learner_weight_publish_seconds_count") or 0) >= 1,
        60,
        "the learner to publish version 0",
    )


def test_counters_advance(stack):
    idle = _until(lambda: stack.value("krl_learner_idle_seconds_total"), 30, "idle seconds > 0")
    _until(
        lambda: stack.value("krl_learner_idle_seconds_total") >= idle + 2,
        30,
        "the waiting learner's idle seconds to rise",
    )
    assert stack.value("increase(krl_learner_idle_seconds_total[20s])") > 0

    before = stack.value("sum(krl_evaluator_evaluations_total)") or 0.0
    problem = to_payload(builtin_problem("activation/relu"))
    settings = EvalSettings(device="cpu", trials=1, timeout_s=60)
    with EvalClient(stack.cfg.broker, stack.cfg.transport, client_id="prom-test") as client:
        # Candidates the static checks reject: real evaluations, no sandboxed child needed.
        rids = [
            client.submit(problem, f"import torch\nx = {i}  # {new_id()}\n", settings)
            for i in range(3)
        ]
        results = [client.future(rid).result(timeout=60) for rid in rids]
    assert [r.verdict.status for r in results] == ["format_error"] * 3
    _until(
        lambda: (stack.value('sum(krl_broker_results_total{status="format_error"})') or 0) >= 3,
        20,
        "broker results counted",
    )
    _until(
        lambda: stack.value("sum(krl_evaluator_evaluations_total)") >= before + 3,
        20,
        "worker evaluations counted",
    )
    assert stack.value('sum(krl_broker_requests_total{outcome="queued"})') >= 3
    assert stack.value("sum(krl_broker_request_latency_seconds_count)") >= 3


def test_alert_rules_load_and_evaluate(stack):
    expected = {rule["alert"] for rule in D.alert_rules()}

    def loaded():
        rules = [r for g in stack.api("rules")["groups"] for r in g["rules"]]
        return (
            rules
            if {r["name"] for r in rules} == expected
            and all(
                r.get("lastEvaluation", "").startswith("2") and r["health"] != "unknown"
                for r in rules
            )
            else None
        )

    rules = _until(loaded, 30, "every alert rule loaded and evaluated")
    assert {r["name"]: r["health"] for r in rules} == {name: "ok" for name in expected}

    # Nothing serves the actor's port: its role is down, and no other role is.
    def actor_down():
        return [
            a for a in stack.api("alerts")["alerts"] if a["labels"]["alertname"] == "KrlRoleDown"
        ]

    active = _until(actor_down, 30, "KrlRoleDown to go active")
    assert [a["labels"]["job"] for a in active] == ["krl-actor"]
    assert active[0]["state"] in ("pending", "firing")


def test_every_dashboard_query_runs(stack):
    failed = []
    for title, expr in D.dashboard_exprs():
        try:
            stack.query(expr)
        except (AssertionError, OSError) as exc:  # HTTP 400 with Prometheus' parse error
            failed.append(f"{title}: {expr}: {exc}")
    assert not failed
    # The learner's panels have data in this run.
    assert stack.query("max(krl_learner_policy_version)")
    assert stack.query('max by (job) (up{job=~"krl-.+"})')


def test_sigterm_stops_the_learner_ranks_with_a_final_checkpoint(stack):
    script = stack.procs["learner"]
    ranks_and_launchers = _descendants(script.pid)
    assert ranks_and_launchers, "the launch script has no children"
    script.send_signal(signal.SIGTERM)
    script.wait(timeout=90)
    left = [pid for pid in ranks_and_launchers if _running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "the script exited before its ranks"
    log = stack.log_tail("learner")
    assert "learner stopped at step 0" in log, log
    checkpoints = sorted((stack.run_dir / "checkpoints").glob("step_*"))
    assert checkpoints and (checkpoints[-1] / "COMPLETE").exists(), log
