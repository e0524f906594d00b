"""The learner process (real DeepSpeed on CPU, tiny model) fed over real sockets; killed
with SIGKILL mid-run and restarted: it resumes from its checkpoint, reaches its step
budget, trains no group twice and loses none that it acked."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from proc_helpers import clean_env, scripted_learner_config
from proc_helpers import free_port as _port
from scripted_actor import ScriptedActor

from learner.ledger import LEDGER, read

pytestmark = pytest.mark.slow


def _start(cfg_path: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "launcher.cli", "learner", str(cfg_path)],
        stdout=open(log, "ab"),
        stderr=subprocess.STDOUT,
        env=clean_env(),
    )


def _progress(run_dir: Path) -> dict:
    try:
        return json.loads((run_dir / "learner" / "progress.json").read_text())
    except (OSError, ValueError):
        return {}


def test_learner_survives_kill_9(tmp_path):
    sys.path.insert(0, str(Path(__file__).parents[1] / "unit" / "learner"))
    from learner_helpers import VOCAB, make_tiny_model

    model = make_tiny_model(tmp_path / "model")
    hub, pub = f"tcp://127.0.0.1:{_port()}", f"tcp://127.0.0.1:{_port()}"
    run_dir = tmp_path / "run"
    cfg = scripted_learner_config(
        run_dir,
        model,
        hub,
        pub,
        max_steps=6,
        metrics={"enabled": False},
        trainer={"micro_batch_tokens": 256},
    )
    cfg_path = tmp_path / "run.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg))
    log = tmp_path / "learner.log"
    actor = ScriptedActor(hub, VOCAB)

    proc = _start(cfg_path, log)
    deadline = time.monotonic() + 300
    while _progress(run_dir).get("learner_steps", 0) < 3:
        assert proc.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, "learner made no progress"
        actor.work_once()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = _progress(run_dir)["learner_steps"]

    proc = _start(cfg_path, log)
    while proc.poll() is None:
        assert time.monotonic() < deadline + 300, "learner did not finish after restart"
        actor.work_once()
    assert proc.returncode == 0, log.read_text()[-3000:]
    assert "resumed from" in log.read_text()

    final = _progress(run_dir)
    assert final["learner_steps"] == 6 and final["policy_version"] == 6
    steps = [h["step"] for h in final["history"]]
    assert steps == list(range(1, 7)), f"history after restore must be one line per step: {steps}"
    trained = [g for h in final["history"] for g in h["groups"]]
    assert len(trained) == len(set(trained)), "a group was trained twice"
    stored = {p.stem for p in (run_dir / "hub" / "groups").glob("*.grp")}
    # Dropped by the restore: made in part by weights newer than the checkpoint.
    rolled_back = {
        e["group_id"]
        for e in read(run_dir / "hub" / "groups" / LEDGER)
        if e["event"] == "dropped" and e["reason"] == "rolled_back"
    }
    assert not rolled_back & set(trained)
    lost = actor.accepted - set(trained) - stored - rolled_back
    assert not lost, f"acked groups neither trained, stored nor dropped as rolled back: {lost}"
    assert killed_at >= 3
