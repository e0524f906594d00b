"""`krl run` with `supervisor.learner_ranks: 2`: the supervisor starts the learner as two
real DeepSpeed ranks (gloo on the CPU, ZeRO-3, a tiny model) that form one process group;
when one rank is SIGKILLed the other is killed too and both restart together from the last
checkpoint, and the run still trains every acked group exactly once."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from proc_helpers import clean_env, read_json, scripted_learner_config
from proc_helpers import free_port as _port
from scripted_actor import ScriptedActor

from learner.ledger import reconcile

pytestmark = pytest.mark.slow


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is not running
        return f.read().split()[2] != "Z"


def test_learner_ranks_under_krl_run_restart_together(tmp_path):
    sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
    from learner_helpers import VOCAB, make_tiny_model

    run_dir = tmp_path / "run"
    hub = f"tcp://127.0.0.1:{_port()}"
    cfg = scripted_learner_config(
        run_dir,
        make_tiny_model(tmp_path / "model"),
        hub,
        f"tcp://127.0.0.1:{_port()}",
        max_steps=8,
        trainer={"zero_stage": 3, "micro_batch_tokens": 64},
    )
    cfg.update(
        {
            "supervisor": {
                "learner_ranks": 2,
                "actors": 0,
                "evaluators": 0,
                "restart_backoff_min_s": 0.5,
                "progress_interval_s": 5,
                "stop_timeout_s": 20,
            },
            "broker": {
                "frontend": f"tcp://127.0.0.1:{_port()}",
                "backend": f"tcp://127.0.0.1:{_port()}",
            },
        }
    )
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = tmp_path / "run.out"
    sup = subprocess.Popen(
        [sys.executable, "-m", "launcher.cli", "run", str(path)],
        stdout=open(out, "wb"),
        stderr=subprocess.STDOUT,
        env=clean_env(),
    )
    actor = ScriptedActor(hub, VOCAB)
    deadline = time.monotonic() + 500
    killed = None
    try:
        while sup.poll() is None:
            assert time.monotonic() < deadline, out.read_text()[-3000:]
            done = read_json(run_dir / "learner" / "progress.json").get("learner_steps", 0)
            if killed is None and done >= 2:  # no more data until the kill: the budget waits
                if not list((run_dir / "checkpoints").glob("step_*/COMPLETE")):
                    time.sleep(0.2)
                    continue
                procs = read_json(run_dir / "supervisor.json")["processes"]
                killed = {name: procs[name]["pid"] for name in ("learner", "learner-1")}
                os.kill(killed["learner-1"], signal.SIGKILL)
            actor.work_once()
    finally:
        if sup.poll() is None:
            sup.kill()
    assert sup.returncode == 0, out.read_text()[-3000:]

    summary = read_json(run_dir / "summary.json")
    assert summary["status"] == "completed" and summary["learner_steps"] == 8
    # The killed rank died of its SIGKILL; its peer ended with it, killed by the supervisor
    # or aborting on its own when its collective with the dead rank failed (SIGABRT, a
    # race seen once in CI-like runs); both restarted once, as one group, and exited 0.
    assert summary["exit_codes"]["learner-1"] == [-9, 0]
    assert summary["exit_codes"]["learner"] in ([-9, 0], [-6, 0])
    assert summary["restarts"]["learner"] == summary["restarts"]["learner-1"] == 1
    resumed = {
        name: re.findall(
            r"resumed from \S+ \(step (\d+)\)", (run_dir / "logs" / f"{name}.log").read_text()
        )
        for name in ("learner", "learner-1")
    }
    assert resumed["learner"] == resumed["learner-1"] and len(resumed["learner"]) == 1, resumed
    assert int(resumed["learner"][0]) >= 2  # both from the same checkpoint
    fate = reconcile(run_dir)
    assert fate["trained_twice"] == fate["lost"] == fate["not_accepted"] == 0, fate
    assert fate["ledger_matches_learner"], fate
    for name, p in read_json(run_dir / "supervisor.json")["processes"].items():
        assert not _alive(p["pid"]), f"{name} (pid {p['pid']}) still running after the run"
    assert not any(_alive(pid) for pid in killed.values())
