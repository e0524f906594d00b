"""Hub -> actor weight sync over real sockets: announce, pull, verify; late joiners get
the newest version; a version the hub dropped mid-pull is abandoned, not half-loaded; a
pull streams buckets while the hub still packs the version, and a version whose
publishing fails is never loaded."""

import threading
import time

import pytest
import torch
from proc_helpers import blocked_call_ends_on_stop, free_port

from actor.weight_sync import WeightSync
from common.config import TransportConfig
from common.config.hub import HubConfig
from common.messages import ProblemPayload
from common.metrics import Metrics
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

TRANSPORT = TransportConfig(request_timeout_s=2, request_retries=1)


def _server(tmp_path, keep=2, checksum="blake3", transport=TRANSPORT):
    cfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        announce_interval_s=0.1,
        bucket_bytes=1 << 20,
        keep_weight_versions=keep,
        checksum=checksum,
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


def _served_bytes(server) -> float:
    return server.metrics.registry.get_sample_value("krl_learner_weight_served_bytes_total") or 0


def _once_served(server, tensors, then=None, served_early=None, timeout_s=10.0):
    """Yield `tensors`; before the last one, wait until the hub has served an actor a
    bucket (impossible unless buckets are served while the version is being packed)."""
    yield from tensors[:-1]
    deadline = time.monotonic() + timeout_s
    while _served_bytes(server) == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    if served_early is not None:
        served_early.append(_served_bytes(server) > 0)
    if then is not None:
        then()
    yield tensors[-1]


def _publish_in_thread(server, version, tensors):
    errors = []

    def run():
        try:
            server.publish(version, tensors)
        except RuntimeError as exc:
            errors.append(exc)

    t = threading.Thread(target=run)
    t.start()
    return t, errors


def _layers(n, value=0.0):
    return [(f"l{i}", torch.full((512, 512), value + i)) for i in range(n)]  # 1 MiB each


def _wait_announcement(sync, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ann = sync.poll(0.2)
        if ann is not None:
            return ann
    raise AssertionError("no announcement heard")


@pytest.mark.parametrize("algorithm", ["blake3", "sha256"])
def test_late_joiner_pulls_the_newest_version_intact(tmp_path, algorithm):
    server = _server(tmp_path, checksum=algorithm)
    try:
        for v in (1, 2, 3):
            weights = [(f"l{i}", torch.full((200, 300), float(v * 10 + i))) for i in range(8)]
            server.publish(v, weights)
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        ann = _wait_announcement(sync)
        assert ann.version == 3 and ann.complete and len(ann.buckets) >= 2
        assert all(b.checksum.startswith(algorithm + ":") for b in ann.buckets)
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
    sync = WeightSync(
        server.endpoint, server.publish_endpoint, cfg, Metrics("actor"), pull_window=1
    )
    ann = _wait_announcement(sync)
    server.stop()
    t = time.monotonic()
    assert sync.pull(ann) is None
    assert time.monotonic() - t < 5
    sync.close()


def test_pull_streams_buckets_while_the_version_is_being_packed(tmp_path):
    server = _server(tmp_path)
    weights = _layers(6)
    try:
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        served_early = []
        publisher, errors = _publish_in_thread(
            server, 1, _once_served(server, weights, served_early=served_early)
        )
        ann = _wait_announcement(sync)
        assert ann.version == 1 and not ann.complete and ann.buckets == []
        buckets = sync.pull(ann)
        publisher.join()
        assert served_early == [True]  # the actor had buckets before the last tensor was in
        assert not errors and buckets is not None and len(buckets) == 6
        got = {n: t for b in buckets for n, t in b.tensors()}
        assert all(torch.equal(got[n], t) for n, t in weights)
        assert server.weights.latest().complete
        sync.close()
    finally:
        server.stop()


def test_version_whose_publishing_fails_midway_is_never_loaded(tmp_path):
    server = _server(tmp_path)
    weights = _layers(6)

    def fail():
        raise RuntimeError("gathering the weights failed")

    try:
        sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
        publisher, errors = _publish_in_thread(server, 1, _once_served(server, weights, fail))
        ann = _wait_announcement(sync)
        assert sync.pull(ann) is None  # it had some buckets already
        publisher.join()
        assert errors and server.weights.latest() is None
        server.publish(2, _layers(2, 10.0))
        newer = _wait_announcement(sync)
        assert newer.version == 2 and len(sync.pull(newer)) == 2
        sync.close()
    finally:
        server.stop()


def test_publish_slower_than_the_request_timeout_does_not_fail_the_pull(tmp_path):
    """Held requests are answered `busy` and resent, so a slow publish is not a dead hub."""
    fast = TransportConfig(request_timeout_s=0.5, request_retries=1)
    server = _server(tmp_path, transport=fast)
    weights = _layers(3)
    try:
        sync = WeightSync(server.endpoint, server.publish_endpoint, fast, Metrics("actor"))
        stall = _once_served(server, weights, lambda: time.sleep(2.0))  # 2 s > 2 x 0.5 s
        publisher, errors = _publish_in_thread(server, 1, stall)
        buckets = sync.pull(_wait_announcement(sync))
        publisher.join()
        assert not errors and buckets is not None and len(buckets) == 3
        sync.close()
    finally:
        server.stop()


def _restarted(tmp_path, old):
    """A new hub incarnation on the old one's ports (a learner restart)."""
    old.stop()
    cfg = old.cfg.model_copy(
        update={"endpoint": old.endpoint, "publish_endpoint": old.publish_endpoint}
    )
    s = HubServer(old.hub, cfg, TRANSPORT, Metrics("learner"))
    s.start()
    return s


def test_rolled_back_hub_is_followed_to_a_lower_and_a_republished_version(tmp_path):
    """A learner restart rolls the hub back from v2 to its checkpoint's v1 and then
    re-publishes v2 with other weights: the actor takes both, and never mixes buckets of
    the two incarnations."""
    server = _server(tmp_path)
    sync = WeightSync(server.endpoint, server.publish_endpoint, TRANSPORT, Metrics("actor"))
    try:
        server.publish(1, _layers(2, 0.0))
        server.publish(2, _layers(2, 10.0))
        old = _wait_announcement(sync)
        assert (old.version, old.base_version) == (2, 1)
        assert sync.pull(old) is not None
        sync.loaded(2, old.hub_id)
        server = _restarted(tmp_path, server)
        server.publish(1, _layers(2, 100.0))  # v1': what the checkpoint holds
        ann = _wait_announcement(sync)
        assert (ann.version, ann.base_version) == (1, 1) and ann.hub_id not in ("", old.hub_id)
        assert sync.pull(old) is None  # the discarded v2 is gone with its incarnation
        got = {n: t for b in sync.pull(ann) for n, t in b.tensors()}
        assert all(torch.equal(got[n], t) for n, t in _layers(2, 100.0))
        sync.loaded(1, ann.hub_id)
        assert sync.poll(0.3) is None
        server.publish(2, _layers(2, 200.0))  # v2': the same number, other weights
        again = _wait_announcement(sync)
        assert (again.version, again.hub_id) == (2, ann.hub_id)
        got = {n: t for b in sync.pull(again) for n, t in b.tensors()}
        assert all(torch.equal(got[n], t) for n, t in _layers(2, 200.0))
    finally:
        sync.close()
        server.stop()


def test_stop_makes_a_pull_from_a_silent_hub_give_up_at_once():
    """An actor stopping after the learner is gone must not sit out its pull's retry
    budget (30 s x 4 by default) before it can exit."""
    from common.messages import BucketInfo, WeightAnnouncement

    silent = f"tcp://127.0.0.1:{free_port()}"
    sync = WeightSync(
        silent, silent, TransportConfig(request_timeout_s=30, request_retries=3), Metrics("actor")
    )
    ann = WeightAnnouncement(
        version=1,
        total_bytes=8,
        hub_id="h",
        buckets=[
            BucketInfo(
                index=0,
                nbytes=8,
                checksum="sha256:00",
                names=["w"],
                dtypes=["float32"],
                shapes=[[2]],
                offsets=[0],
            )
        ],
    )
    try:
        outcome = blocked_call_ends_on_stop(lambda: sync.pull(ann), sync.stop)
        assert outcome == {"value": None}
    finally:
        sync.stop()
        sync.close()
