"""`krl run` supervises real role processes: a killed process is restarted, the run
stops when the learner reaches its budget, summary.json reconciles with the learner's
records, nothing is left running, and a second `krl run` on the directory resumes."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from proc_helpers import clean_env as _clean_env
from proc_helpers import free_port as _port
from proc_helpers import read_json as _read
from proc_helpers import scripted_learner_config
from scripted_actor import ScriptedActor

pytestmark = pytest.mark.slow


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is not running
        return f.read().split()[2] != "Z"


def test_run_restarts_a_killed_role_and_finishes(tmp_path):
    sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
    from learner_helpers import VOCAB, make_tiny_model

    run_dir = tmp_path / "run"
    hub = f"tcp://127.0.0.1:{_port()}"
    cfg = scripted_learner_config(
        run_dir, make_tiny_model(tmp_path / "model"), hub, f"tcp://127.0.0.1:{_port()}", max_steps=4
    )
    cfg.update(
        {
            "supervisor": {
                "actors": 0,
                "evaluators": 1,
                "restart_backoff_min_s": 0.5,
                "progress_interval_s": 2,
                "stop_timeout_s": 20,
            },
            "broker": {
                "frontend": f"tcp://127.0.0.1:{_port()}",
                "backend": f"tcp://127.0.0.1:{_port()}",
            },
            # No warm-up (as test_chaos): nothing here is evaluated, and the warm-up's sandbox
            # (torch and Triton imports) takes the cores from the learner's start for seconds.
            "evaluator": {"device": "cpu", "children": 1, "worker": {"warm_up": False}},
        }
    )
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = open(tmp_path / "run.out", "wb")
    sup = subprocess.Popen(
        [sys.executable, "-m", "launcher.cli", "run", str(path)],
        stdout=out,
        stderr=subprocess.STDOUT,
        env=_clean_env(),
    )
    actor = ScriptedActor(hub, VOCAB)
    deadline = time.monotonic() + 400
    killed = None
    while sup.poll() is None:
        assert time.monotonic() < deadline, (tmp_path / "run.out").read_text()[-3000:]
        actor.work_once()
        procs = _read(run_dir / "supervisor.json").get("processes", {})
        if killed is None and procs.get("broker", {}).get("pid"):
            killed = procs["broker"]["pid"]
            os.kill(killed, signal.SIGKILL)
    assert sup.returncode == 0, (tmp_path / "run.out").read_text()[-3000:]
    summary = _read(run_dir / "summary.json")
    progress = _read(run_dir / "learner" / "progress.json")
    assert summary["status"] == "completed" and summary["learner_steps"] == 4
    assert summary["restarts"]["broker"] >= 1 and summary["exit_codes"]["broker"][0] == -9
    assert summary["groups_trained"] == progress["groups_trained"] == 8
    assert [h["step"] for h in summary["history"]] == [1, 2, 3, 4]
    assert (run_dir / "config.yaml").exists() and (run_dir / "logs" / "learner.log").exists()
    for name, p in _read(run_dir / "supervisor.json")["processes"].items():
        assert not _alive(p["pid"]), f"{name} (pid {p['pid']}) still running after the run"

    # Running it again on the directory resumes from the last checkpoint.
    sup = subprocess.Popen(
        [sys.executable, "-m", "launcher.cli", "run", str(run_dir), "learner.max_steps=6"],
        stdout=out,
        stderr=subprocess.STDOUT,
        env=_clean_env(),
    )
    while sup.poll() is None:
        assert time.monotonic() < deadline + 300
        actor.work_once()
    summary = _read(run_dir / "summary.json")
    assert sup.returncode == 0 and summary["learner_steps"] == 6
    assert [h["step"] for h in summary["history"]] == [1, 2, 3, 4, 5, 6]
    assert "resumed from" in (run_dir / "logs" / "learner.log").read_text()
