"""Part (b) of benchmarks/learner.py: `HubServer.publish` of the trained weights plus an actor
process pulling and verifying every bucket (`actor.weight_sync.WeightSync`) over loopback TCP,
against raw pyzmq PUSH/PULL of the same bucket bytes to a process, alternating rounds (the
method and the target are in learner.py's docstring). The two receivers are child processes.
"""

from __future__ import annotations

import multiprocessing as mp
import statistics
import time
from pathlib import Path


def _transport():
    from common.config import TransportConfig

    return TransportConfig(request_timeout_s=120, request_retries=1, max_message_bytes=1 << 31)


def actor_side(endpoint: str, publish_endpoint: str, q, versions: list[int]) -> None:
    """Child process: pull and verify each announced version; report when it is complete."""
    from actor.weight_sync import WeightSync
    from common.metrics import Metrics

    sync = WeightSync(endpoint, publish_endpoint, _transport(), Metrics("bench_actor"))
    for v in [0] + versions:  # version 0 is a tiny warm-up: the subscription is live after it
        ann = None
        while ann is None or ann.version < v:
            ann = sync.poll(1.0)
        heard = time.monotonic()
        buckets = sync.pull(ann)
        assert buckets is not None, f"version {v} failed"
        done = time.monotonic()
        sync.loaded(ann.version)
        q.put((v, done, sum(b.data.numel() for b in buckets), heard))
        del buckets
    sync.close()


def raw_side(q, rounds: int, n_msgs: int) -> None:
    """Child process: receive n_msgs raw frames per round; report when the last one is in."""
    import zmq

    ctx = zmq.Context()
    sock = ctx.socket(zmq.PULL)
    sock.setsockopt(zmq.MAXMSGSIZE, -1)
    q.put(sock.bind_to_random_port("tcp://127.0.0.1"))
    for r in range(rounds):
        nbytes = 0
        for _ in range(n_msgs):
            nbytes += len(sock.recv(copy=False))
        q.put((r, time.monotonic(), nbytes))
    sock.close(linger=0)
    ctx.term()


def bench_publish(named: list, rounds: int, work: Path, bucket_bytes: int = 0) -> dict:
    import torch
    import zmq

    from common.buckets import bucketize
    from common.config.hub import HubConfig
    from common.messages import ProblemPayload
    from common.metrics import Metrics
    from learner.group_store import GroupStore
    from learner.hub import Hub, PromptSource
    from learner.hub_server import HubServer

    hcfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        announce_interval_s=0.5,
        keep_weight_versions=1,
    )
    if bucket_bytes:
        hcfg.bucket_bytes = bucket_bytes
    m = Metrics("bench_learner")
    hub = Hub(
        hcfg,
        1,
        1,
        1,
        1,
        PromptSource([ProblemPayload(name="p", source="x")], 0),
        GroupStore(work / "groups"),
        m,
    )
    server = HubServer(hub, hcfg, _transport(), m)
    server.start()
    raw_bufs = [b.data for b in bucketize(named, hcfg.bucket_bytes)]  # the same bytes
    spawn = mp.get_context("spawn")
    qa, qr = spawn.Queue(), spawn.Queue()
    versions = list(range(1, rounds + 1))
    actor = spawn.Process(
        target=actor_side, args=(server.endpoint, server.publish_endpoint, qa, versions)
    )
    raw = spawn.Process(target=raw_side, args=(qr, rounds, len(raw_bufs)))
    actor.start()
    raw.start()
    server.publish(0, [("warmup", torch.zeros(16))])
    qa.get(timeout=120)
    ctx = zmq.Context()
    push = ctx.socket(zmq.PUSH)
    push.connect(f"tcp://127.0.0.1:{qr.get(timeout=120)}")
    krl, rawr, publish_s, pull_s = [], [], [], []
    for v in versions:
        t0 = time.monotonic()
        for buf in raw_bufs:
            push.send(memoryview(buf.numpy()), copy=False)
        _, done, nbytes = qr.get(timeout=600)
        rawr.append(nbytes / (done - t0) / 1e9)
        t0 = time.monotonic()
        nbytes = server.publish(v, named)
        publish_s.append(time.monotonic() - t0)
        _, done, pulled, heard = qa.get(timeout=600)
        assert pulled == nbytes
        pull_s.append(done - heard)
        krl.append(nbytes / (done - t0) / 1e9)
    push.close(linger=0)
    ctx.term()
    actor.join(60)
    raw.join(60)
    server.stop()
    k, r = statistics.median(krl), statistics.median(rawr)
    return {
        "bytes": nbytes,
        "buckets": len(raw_bufs),
        "bucket_bytes": hcfg.bucket_bytes,
        "checksum": hcfg.checksum,
        "krl_gb_s": k,
        "raw_gb_s": r,
        "ratio": k / r,
        "publish_seconds": publish_s,
        "pull_seconds": pull_s,
        "krl_all_gb_s": krl,
        "raw_all_gb_s": rawr,
        "target_met": k / r >= 0.8,
    }
