"""Hub -> actor weight sync over real sockets: announce, pull, verify; late joiners get
the newest version; a version the hub dropped mid-pull is abandoned, not half-loaded."""
import time

import torch

from actor.weight_sync import WeightSync
from common.config import TransportConfig
from common.config.hub import HubConfig
from common.messages import ProblemPayload
from common.metrics import Metrics
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

TRANSPORT = TransportConfig(request_timeout_s=2, request_retries=1)


def _server(tmp_path, keep=2):
    cfg = HubConfig(endpoint="tcp://127.0.0.1:0", publish_endpoint="tcp://127.0.0.1:0",
                    announce_interval_s=0.1, bucket_bytes=1 << 20, keep_weight_versions=keep)
    m = Metrics("learner")
    hub = Hub(cfg, 1, 1, 1, 1, PromptSource([ProblemPayload(name="p", source="x")], 0),
              GroupStore(tmp_path / "g"), m)
    s = HubServer(hub, cfg, TRANSPORT, m)
    s.start()
    return s


def _wait_announcement(sync, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ann = sync.poll(0.2)
        if ann is not None:
            return ann
    raise AssertionError("no announcement heard")


def test_late_joiner_pulls_the_newest_version_intact(tmp_path):
    server = _server(tmp_path)
    try:
        for v in (1, 2, 3):
            weights = [(f"l{i}", torch.full((200, 300), float(v * 10 + i))) for i in range(8)]
            server.publish(v, weights)
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        ann = _wait_announcement(sync)
        assert ann.version == 3 and len(ann.buckets) >= 2
        buckets = sync.pull(ann)
        got = {n: t for b in buckets for n, t in b.tensors()}
        assert all(torch.equal(got[n], t) for n, t in weights)
        sync.loaded(3)
        assert sync.poll(0.3) is None  # nothing newer
        sync.close()
    finally:
        server.stop()


def test_version_dropped_mid_pull_is_abandoned(tmp_path):
    server = _server(tmp_path, keep=1)
    try:
        server.publish(1, [("w", torch.zeros(10))])
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        ann = _wait_announcement(sync)
        server.publish(2, [("w", torch.ones(10))])  # version 1 is dropped (keep=1)
        assert sync.pull(ann) is None
        newer = _wait_announcement(sync)
        assert newer.version == 2 and sync.pull(newer) is not None
        sync.close()
    finally:
        server.stop()


def test_corrupted_bucket_loads_nothing(tmp_path):
    server = _server(tmp_path)
    try:
        server.publish(1, [(f"l{i}", torch.randn(300, 300)) for i in range(6)])
        server.weights.get(1, 1).data[7] ^= 0xFF  # bit rot after the checksum was taken
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        assert sync.pull(_wait_announcement(sync)) is None
        sync.close()
    finally:
        server.stop()


def test_hub_gone_mid_pull_gives_up_within_the_retry_budget(tmp_path):
    server = _server(tmp_path)
    server.publish(1, [(f"l{i}", torch.randn(300, 300)) for i in range(6)])
    cfg = TransportConfig(request_timeout_s=0.5, request_retries=1)
    sync = WeightSync(server.endpoint, server.publish_endpoint, cfg, Metrics("actor"), pull_window=1)
    ann = _wait_announcement(sync)
    server.stop()
    t = time.monotonic()
    assert sync.pull(ann) is None
    assert time.monotonic() - t < 5
    sync.close()
