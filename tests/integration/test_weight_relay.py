"""Weights to several real actor processes over the relay, with deltas: every actor ends
holding exactly the learner's tensors (a digest of names, dtypes, shapes and bytes),
including when the actor at the head of the chain is killed mid-transfer, when an actor
stalls through versions and comes back, after a learner rollback, and when an actor
(re)starts late."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import torch
from proc_helpers import clean_env
from test_weight_sync import _restarted
from weight_actor import digest

from common.config import TransportConfig
from common.config.hub import HubConfig
from common.messages import ProblemPayload
from common.metrics import Metrics
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

SCRIPT = Path(__file__).with_name("weight_actor.py")
TRANSPORT = TransportConfig(request_timeout_s=2, request_retries=3)


def _hub(tmp_path, fanout=1, transport=TRANSPORT):
    cfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        announce_interval_s=0.2,
        bucket_bytes=1 << 20,
        keep_weight_versions=2,
        relay_fanout=fanout,
        relay_timeout_s=1.5,
        keyframe_every=100,
    )
    m = Metrics("learner")
    hub = Hub(
        cfg,
        1,
        1,
        1,
        1,
        PromptSource([ProblemPayload(name="p", source="x")], 0),
        GroupStore(tmp_path / "g"),
        m,
    )
    s = HubServer(hub, cfg, transport, m)
    s.start()
    return s


def _actors(tmp_path, server, n, *extra):
    tmp_path.mkdir(exist_ok=True)
    procs = []
    for i in range(n):
        status = tmp_path / f"actor{i}.jsonl"
        procs.append(
            (
                subprocess.Popen(
                    [
                        sys.executable,
                        str(SCRIPT),
                        server.endpoint,
                        server.publish_endpoint,
                        str(status),
                        "--relay",
                        "--relay-timeout",
                        "1.5",
                        *extra,
                    ],
                    env=clean_env(),
                ),
                status,
            )
        )
    return procs


def _lines(status: Path) -> list[dict]:
    return [json.loads(x) for x in status.read_text().splitlines()] if status.exists() else []


def _wait_all(procs, version, hub_id, timeout_s=60.0) -> list[dict]:
    """The status line of `version` from every live actor."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        got = [
            next(
                (
                    x
                    for x in _lines(st)
                    if x.get("version") == version and x.get("hub_id") == hub_id
                ),
                None,
            )
            for _, st in procs
        ]
        if all(got):
            return got
        dead = [p.args for p, _ in procs if p.poll() is not None]
        assert not dead, f"actor exited: {dead}"
        time.sleep(0.1)
    raise AssertionError(
        f"not every actor loaded version {version}: {[_lines(st)[-1:] for _, st in procs]}"
    )


def _weights(seed: int, step: float = 0.0):
    """bf16 layers (1 MiB each); a small step moves a few of their words, as RL does."""
    g = torch.Generator().manual_seed(seed)
    base = [torch.randn(512, 1024, generator=g) for _ in range(6)]
    noise = torch.Generator().manual_seed(seed + 1 + int(step * 1e6))
    return [
        (f"layers.{i}.w", (t + step * torch.randn(t.shape, generator=noise)).to(torch.bfloat16))
        for i, t in enumerate(base)
    ]


def _stop(procs):
    for p, _ in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGCONT)
            p.terminate()
    for p, _ in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def _served(server) -> float:
    return server.metrics.registry.get_sample_value("krl_learner_weight_served_bytes_total") or 0


def test_chain_with_deltas_survives_the_head_relay_killed_mid_transfer(tmp_path):
    server = _hub(tmp_path, fanout=1)
    procs = _actors(tmp_path, server, 3)
    try:
        v1 = _weights(0)
        server.publish(1, v1)
        hub_id = server.hub_id
        got = _wait_all(procs, 1, hub_id)
        assert {x["digest"] for x in got} == {digest(v1)}
        served_v1 = _served(server)
        assert served_v1 < 1.5 * sum(x["full_bytes"] for x in got[:1])  # the hub sent ~one copy

        # v2: the hub stalls after its first buckets, the head of the chain dies meanwhile.
        v2 = _weights(0, step=2e-3)
        tree_head = {}

        def stalled():
            yield from v2[:3]
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (
                len(getattr(server._trees.get(2), "order", [])) < 3 or _served(server) == served_v1
            ):
                time.sleep(0.05)
            tree = server._trees[2]
            head = next(e for e in tree.order if tree.source[e] == "")
            tree_head["endpoint"] = head
            for p, st in procs:
                if _lines(st)[0]["endpoint"] == head:
                    os.kill(p.pid, signal.SIGKILL)
                    p.wait(5)
            yield from v2[3:]

        t0 = time.monotonic()
        server.publish(2, stalled())
        alive = [(p, st) for p, st in procs if p.poll() is None]
        assert len(alive) == 2
        got = _wait_all(alive, 2, hub_id, timeout_s=30)
        assert time.monotonic() - t0 < 15  # routed around within the relay timeout, not stuck
        assert {x["digest"] for x in got} == {digest(v2)}
        # The survivors pulled v2 as deltas against v1: a fraction of the full size.
        assert all(x["wire_bytes"] < 0.7 * x["full_bytes"] for x in got)
        assert server._trees[2].dead == {tree_head["endpoint"]}
    finally:
        _stop(procs)
        server.stop()


def test_stalled_actor_rollback_and_late_start_end_bit_identical(tmp_path):
    server = _hub(tmp_path, fanout=1)
    procs = _actors(tmp_path, server, 2)
    (a, _), (b, _) = procs
    try:
        server.publish(1, _weights(0))
        _wait_all(procs, 1, server.hub_id)
        b.send_signal(signal.SIGSTOP)  # a stalled actor (and, if it is a relay, a slow one)
        server.publish(2, _weights(0, 1e-3))
        _wait_all(procs[:1], 2, server.hub_id)
        server.publish(3, _weights(0, 2e-3))
        _wait_all(procs[:1], 3, server.hub_id)
        b.send_signal(signal.SIGCONT)  # it skipped v2: v3 comes as a full copy
        got = _wait_all(procs, 3, server.hub_id)
        assert {x["digest"] for x in got} == {digest(_weights(0, 2e-3))}
        assert got[0]["wire_bytes"] < 0.7 * got[0]["full_bytes"]  # a followed with deltas
        assert got[1]["wire_bytes"] >= got[1]["full_bytes"]  # b had nothing to apply them to

        old_id = server.hub_id  # the learner restarts from its v2 checkpoint
        server = _restarted(tmp_path, server)
        server.publish(2, _weights(7))  # other weights under the same number
        got = _wait_all(procs, 2, server.hub_id)
        assert server.hub_id != old_id
        assert {x["digest"] for x in got} == {digest(_weights(7))}
        server.publish(3, _weights(7, 1e-3))
        got = _wait_all(procs, 3, server.hub_id)
        assert {x["digest"] for x in got} == {digest(_weights(7, 1e-3))}
        assert all(x["wire_bytes"] < 0.7 * x["full_bytes"] for x in got)

        late = _actors(tmp_path / "late", server, 1)  # a restarted actor: nothing held
        procs += late
        got = _wait_all(late, 3, server.hub_id)
        assert got[0]["digest"] == digest(_weights(7, 1e-3))
        assert got[0]["wire_bytes"] >= got[0]["full_bytes"]  # a full copy, not deltas
    finally:
        _stop(procs)
        server.stop()


def test_tensors_over_the_message_limit_reach_every_actor_in_pieces(tmp_path):
    """An embedding larger than transport.max_message_bytes (a 7B model's is over the
    default GiB) travels as bucket-sized pieces through the chain, as deltas too, and every
    actor ends holding the whole tensor bit-exactly."""
    limit = (1 << 20) + (64 << 10)  # one 1 MiB bucket and its header fit; the 4 MiB tensor not
    transport = TransportConfig(request_timeout_s=2, request_retries=3, max_message_bytes=limit)
    server = _hub(tmp_path, fanout=1, transport=transport)
    procs = _actors(tmp_path, server, 2, "--max-message-bytes", str(limit))
    g = torch.Generator().manual_seed(3)
    embed = torch.randn(2048, 1024, generator=g)
    try:
        for version, step in ((1, 0.0), (2, 2e-3)):
            ws = [("embed", (embed + step).to(torch.bfloat16))] + _weights(0, step)[:2]
            server.publish(version, ws)
            got = _wait_all(procs, version, server.hub_id, timeout_s=30)
            assert {x["digest"] for x in got} == {digest(ws)}
        assert all(x["wire_bytes"] < 0.7 * x["full_bytes"] for x in got)  # v2 as deltas
    finally:
        _stop(procs)
        server.stop()
