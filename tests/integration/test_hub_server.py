"""The hub over real sockets: leases, acks after storage, bucket pulls, announcements."""

import time

import pytest
import torch
import zmq

from common.buckets import Bucket
from common.config import TransportConfig
from common.config.hub import HubConfig
from common.endpoint import Client
from common.messages import (
    Ack,
    LeaseGrant,
    LeaseRequest,
    ProblemPayload,
    Trajectory,
    TrajectoryGroup,
    Turn,
    WeightAnnouncement,
    WeightBucket,
    WeightBucketRequest,
    new_id,
)
from common.metrics import Metrics
from common.transport import Channel, RequestRejected, context
from common.verdict import Verdict
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

TRANSPORT = TransportConfig(request_timeout_s=2, request_retries=1)


@pytest.fixture
def hub_server(tmp_path):
    cfg = HubConfig(
        endpoint="tcp://127.0.0.1:0",
        publish_endpoint="tcp://127.0.0.1:0",
        announce_interval_s=0.2,
        bucket_bytes=1 << 20,
    )
    metrics = Metrics("learner")
    hub = Hub(
        cfg,
        groups_per_step=2,
        max_staleness=1,
        n_samples=2,
        max_turns=1,
        source=PromptSource([ProblemPayload(name="p", source="x")], seed=0),
        store=GroupStore(tmp_path / "groups"),
        metrics=metrics,
    )
    server = HubServer(hub, cfg, TRANSPORT, metrics)
    server.start()
    yield server
    server.stop()


def _group(lease):
    turn = Turn(
        prompt_ids=torch.arange(4, dtype=torch.int32),
        response_ids=torch.arange(6, dtype=torch.int32),
        logprobs=-torch.rand(6),
        versions=torch.zeros(6, dtype=torch.int32),
        verdict=Verdict("ok", correct=True, reward=0.5),
    )
    return TrajectoryGroup(
        request_id=new_id(),
        group_id=new_id(),
        lease_id=lease.lease_id,
        prompt_id=lease.prompt_id,
        problem_name=lease.problem.name,
        actor_id="a0",
        trajectories=[Trajectory(sample_index=i, turns=[turn]) for i in range(2)],
    )


def test_lease_group_ack_over_sockets(hub_server):
    c = Client(context(), TRANSPORT, Metrics("actor"), hub_server.endpoint)
    req = LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=3)
    grant = c.request(req, expect=LeaseGrant)
    assert len(grant.leases) == 3 and grant.policy_version == 0
    again = c.request(req, expect=LeaseGrant)  # a resend: the same leases, not three more
    assert [l.lease_id for l in again.leases] == [l.lease_id for l in grant.leases]
    g = _group(grant.leases[0])
    ack = c.request(g, expect=Ack)
    assert ack.outcome == "accepted" and hub_server.hub.store.ids() == [g.group_id]
    assert c.request(g, expect=Ack).outcome == "duplicate"
    c.close()


def test_weights_are_announced_and_pulled(hub_server):
    sub = Channel(context(), zmq.SUB, TRANSPORT, Metrics("actor"), subscribe=True)
    sub.sock.connect(hub_server.publish_endpoint)
    weights = [(f"layer{i}.w", torch.randn(300, 300)) for i in range(6)]  # ~2 MiB: 2+ buckets
    hub_server.publish(1, weights)
    ann = None
    deadline = time.monotonic() + 5
    while (ann is None or not ann.complete) and time.monotonic() < deadline:
        got = sub.recv(0.5, expect=WeightAnnouncement)
        ann = got.msg if got else None
        # publishing is announced first, before its buckets are listed
        assert ann is None or ann.complete or (ann.buckets == [] and ann.total_bytes == 0)
    assert ann is not None and ann.version == 1 and len(ann.buckets) >= 2
    c = Client(context(), TRANSPORT, Metrics("actor"), hub_server.endpoint)
    received = {}
    for info in ann.buckets:
        msg = c.request(
            WeightBucketRequest(request_id=new_id(), version=1, index=info.index),
            expect=WeightBucket,
        )
        b = Bucket.from_wire(info, msg)
        b.verify()
        received.update({n: t.clone() for n, t in b.tensors()})
    assert all(torch.equal(received[n], t) for n, t in weights)
    with pytest.raises(RequestRejected, match="unknown_version"):
        c.request(WeightBucketRequest(request_id=new_id(), version=7, index=0))
    c.close()
    sub.close()


def test_slow_consumer_does_not_block_publishing(hub_server):
    """Versions keep being published while nobody pulls; only the newest few are kept."""
    for v in range(1, 6):
        hub_server.publish(v, [("w", torch.full((10,), float(v)))])
    assert hub_server.weights.latest().version == 5
    assert hub_server.weights.get(1, 0) is None and hub_server.weights.get(5, 0) is not None
