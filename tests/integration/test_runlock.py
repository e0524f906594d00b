"""One owner per run directory (common/runlock.py): a second `krl run` on a directory in
use is refused with the holder's pid, a learner waits for its predecessor and gives up
clearly, and a holder killed with SIGKILL leaves nothing to clean up."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import yaml
from proc_helpers import clean_env

from common.runlock import LockHeld, RunLock

HOLD = textwrap.dedent("""
    import sys, time
    from common.runlock import RunLock
    RunLock(sys.argv[1], "holder").acquire()
    print("held", flush=True)
    time.sleep(600)
""")


def _holder(path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_held_lock_is_refused_with_its_holder_and_free_once_the_holder_is_killed(tmp_path):
    path = tmp_path / "run" / "krl-run.lock"
    proc = _holder(path)
    try:
        lock = RunLock(path, "second")
        with pytest.raises(LockHeld, match=f"pid {proc.pid} \\(holder\\)"):
            lock.acquire()
        waits = []
        t0 = time.monotonic()
        with pytest.raises(LockHeld):
            lock.acquire(wait_s=0.6, on_wait=waits.append, poll_s=0.1)
        assert time.monotonic() - t0 >= 0.6 and waits == [f"pid {proc.pid} (holder)"]
        os.kill(proc.pid, signal.SIGKILL)  # no clean-up: the lock dies with its holder
        proc.wait()
        lock.acquire(wait_s=5)
        assert lock.held and lock.holder() == f"pid {os.getpid()} (second)"
    finally:
        proc.kill()
        proc.wait()


def test_a_waiting_acquire_gets_the_lock_when_its_holder_lets_go(tmp_path):
    path = tmp_path / "learner.lock"
    proc = _holder(path)
    try:
        lock = RunLock(path, "next")
        subprocess.Popen(["sh", "-c", f"sleep 0.5; kill {proc.pid}"])
        t0 = time.monotonic()
        lock.acquire(wait_s=30, poll_s=0.05)
        assert 0.4 < time.monotonic() - t0 < 30 and lock.held
        lock.release()
        assert not lock.held
        RunLock(path, "third").acquire()  # released means free
    finally:
        proc.kill()
        proc.wait()


def test_krl_run_refuses_a_run_directory_in_use(tmp_path):
    run_dir = tmp_path / "run"
    cfg = tmp_path / "run.yaml"
    cfg.write_text(yaml.safe_dump({"run_dir": str(run_dir)}))
    proc = _holder(run_dir / "krl-run.lock")
    try:
        out = subprocess.run(
            [sys.executable, "-m", "launcher.cli", "run", str(cfg)],
            capture_output=True,
            text=True,
            timeout=120,
            env=clean_env(),
        )
        assert out.returncode == 2, out.stderr
        assert "in use" in out.stderr and f"pid {proc.pid}" in out.stderr
        assert not (run_dir / "config.yaml").exists()  # nothing written into the directory
    finally:
        proc.kill()
        proc.wait()


def test_a_learner_waits_for_its_predecessor_then_gives_up_clearly(tmp_path):
    run_dir = tmp_path / "run"
    # a model directory the start checks take (they run before the lock, learner.start_checks):
    # the learner never loads it, it gives up waiting first
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    proc = _holder(run_dir / "learner" / "learner.lock")
    try:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "launcher.cli",
                "learner",
                f"run_dir={run_dir}",
                f"learner.trainer.model={model}",
                "learner.lock_wait_s=1",
                "learner.metrics.enabled=false",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=clean_env(),
        )
        assert out.returncode == 1, out.stdout + out.stderr
        text = out.stdout + out.stderr
        assert "waiting for the previous learner" in text and f"pid {proc.pid}" in text
        assert "another learner still owns this run directory" in text
    finally:
        proc.kill()
        proc.wait()
