"""Receive memory reuse (actor/receive_memory.py), measured in a real process over real
ZeroMQ sockets: page faults per received version, with and without the setting."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CHILD = textwrap.dedent("""
    import resource, sys
    import zmq
    from actor.receive_memory import keep_receive_memory

    if sys.argv[1] == "reuse":
        assert keep_receive_memory()
    ctx = zmq.Context()
    push, pull = ctx.socket(zmq.PUSH), ctx.socket(zmq.PULL)
    pull.connect(f"tcp://127.0.0.1:{push.bind_to_random_port('tcp://127.0.0.1')}")
    bucket = b"w" * (16 << 20)
    held, faults = [], []
    for version in range(5):  # 128 MB versions; the actor holds the previous one while pulling
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        frames = []
        for _ in range(8):
            push.send(bucket, copy=False)
            frames.append(pull.recv(copy=False))
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
        held = [frames] + held[:1]
    print(faults[-1])
""")


def _faults_of_a_late_version(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_a_late_version_lands_in_reused_memory():
    """Without the setting every 128 MB version faults in 32,768 fresh pages (libzmq mallocs
    each message; glibc maps and unmaps them); with it a late version reuses what an older,
    released version freed."""
    fresh = _faults_of_a_late_version("fresh")
    reused = _faults_of_a_late_version("reuse")
    assert fresh > 30_000, fresh
    assert reused < 1_000, reused
