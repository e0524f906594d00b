"""Groups the hub must refuse before its ack, over real sockets to a real hub thread: each
gets a `rejected` ack saying why, is counted and never stored, and the hub serves on. Also:
the wire carries no id the store cannot hold, and a prompt is accepted once however its id
is spelled."""

import pytest
import torch

from common.config import TransportConfig
from common.config.hub import HubConfig
from common.endpoint import Client
from common.ids import MAX_ID_CHARS
from common.messages import (
    Ack,
    DecodeError,
    LeaseGrant,
    LeaseRequest,
    ProblemPayload,
    Trajectory,
    TrajectoryGroup,
    Turn,
    decode,
    encode,
    new_id,
)
from common.metrics import Metrics
from common.transport import RequestRejected, context
from common.verdict import Verdict
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource
from learner.hub_server import HubServer

TRANSPORT = TransportConfig(request_timeout_s=5, request_retries=1)
VOCAB = 64
N = 4  # response tokens per turn


@pytest.fixture
def served(tmp_path):
    """A hub thread serving on a real socket (n_samples 2, max_turns 2, vocabulary 64) and
    a client leased its two prompts."""
    cfg = HubConfig(endpoint="tcp://127.0.0.1:0", publish_endpoint="tcp://127.0.0.1:0")
    metrics = Metrics("learner")
    problems = [ProblemPayload(name=f"p{i}", source="x") for i in range(2)]
    hub = Hub(
        cfg,
        groups_per_step=2,
        max_staleness=4,
        n_samples=2,
        max_turns=2,
        source=PromptSource(problems, seed=0),
        store=GroupStore(tmp_path / "groups"),
        metrics=metrics,
        vocab_size=VOCAB,
    )
    server = HubServer(hub, cfg, TRANSPORT, metrics)
    server.start()
    client = Client(context(), TRANSPORT, Metrics("actor"), server.endpoint)
    grant = client.request(
        LeaseRequest(request_id=new_id(), actor_id="a0", max_groups=2), expect=LeaseGrant
    )
    yield server, client, grant.leases
    client.close()
    server.stop()


def _turn(**bad) -> Turn:
    """A good turn with `bad`'s fields (the turn's or its verdict's) put in."""
    verdict = dict(status="ok", correct=True, reward=1.0)
    verdict.update({k: bad.pop(k) for k in list(bad) if k in Verdict.__struct_fields__})
    fields = dict(
        prompt_ids=torch.arange(6, dtype=torch.int32),
        response_ids=torch.arange(N, dtype=torch.int32),
        logprobs=torch.full((N,), -2.0),
        versions=torch.zeros(N, dtype=torch.int32),
        verdict=Verdict(**verdict),
    )
    return Turn(**{**fields, **bad})


def _group(lease, samples=(0, 1), turns=1, evaluations=0, prompt_id=None, group_id=None, **bad):
    return TrajectoryGroup(
        request_id=new_id(),
        group_id=group_id or new_id(),
        lease_id=lease.lease_id,
        prompt_id=prompt_id or lease.prompt_id,
        problem_name=lease.problem.name,
        actor_id="a0",
        evaluations=evaluations,
        trajectories=[
            Trajectory(sample_index=i, turns=[_turn(**bad) for _ in range(turns)]) for i in samples
        ],
    )


# What is wrong -> (the group's arguments, a word the ack's reason must hold): each one
# names a file outside the store, or is one the trainer would crash on or learn nonsense from.
POISON = {
    "a group id naming a path": (dict(group_id="../../etc/x"), "characters outside"),
    "logprobs in two dimensions": (dict(logprobs=torch.full((2, 2), -2.0)), "1-D"),
    "versions in two dimensions": (dict(versions=torch.zeros(2, 2, dtype=torch.int32)), "1-D"),
    "fractional token ids": (dict(response_ids=torch.tensor([1.5, 2.0, 3.0, 4.0])), "integer"),
    "boolean token ids": (dict(prompt_ids=torch.ones(6, dtype=torch.bool)), "integer"),
    "integer logprobs": (dict(logprobs=torch.full((N,), -2, dtype=torch.int32)), "floating"),
    "a logprob above 0": (dict(logprobs=torch.tensor([-1.0, 50.0, -1.0, -1.0])), "above 0"),
    "code starting past the response": (dict(code_start=N + 1), "code starts"),
    "a NaN speedup": (dict(speedup=float("nan")), "speedup"),
    "an infinite coverage": (dict(coverage=float("inf")), "coverage"),
    "a sample index twice": (dict(samples=(0, 0)), "repeat"),
    "more samples than a lease asks for": (dict(samples=(0, 1, 2)), "lease asks for 2"),
    "more turns than a lease allows": (dict(turns=3), "lease allows 2"),
    "more evaluations than turns": (dict(evaluations=3), "evaluations"),
}


def _rejected_total(server: HubServer) -> float:
    text = server.metrics.render().decode()
    line = 'krl_learner_groups_received_total{outcome="rejected"}'
    return sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines() if l.startswith(line))


def test_poison_groups_are_refused_with_a_reason_and_never_stored(served, tmp_path):
    server, client, (lease, _) = served
    for what, (bad, reason) in POISON.items():
        ack = client.request(_group(lease, **bad), expect=Ack)
        assert ack.outcome == "rejected" and reason in ack.detail, f"{what}: {ack}"
    assert server.hub.store.ids() == [], "a poison group was stored"
    assert not (tmp_path.parent / "etc").exists(), "a group id named a file outside the store"
    assert _rejected_total(server) == len(POISON)
    good = _group(lease)
    assert client.request(good, expect=Ack).outcome == "accepted", "the hub must serve on"
    assert server.hub.store.ids() == [good.group_id]


def test_a_prompt_is_accepted_once_however_its_id_is_spelled(served):
    server, client, (lease, _) = served
    assert client.request(_group(lease), expect=Ack).outcome == "accepted"
    epoch, index = lease.prompt_id.removeprefix("e").split("-i")
    for alias in (f"e0{epoch}-i{index}", f"e{epoch}-i0_{index}"):  # int() reads both
        ack = client.request(_group(lease, prompt_id=alias), expect=Ack)
        assert ack.outcome == "rejected" and "data set" in ack.detail, f"{alias}: {ack}"
    assert len(server.hub.store.ids()) == 1, "one prompt, two groups stored"


def test_every_group_id_the_wire_carries_can_be_stored(served, tmp_path):
    server, client, (lease, _) = served
    store = GroupStore(tmp_path / "store")
    for n in (1, MAX_ID_CHARS, MAX_ID_CHARS + 1, 256):
        g = _group(lease)
        g.group_id = "g" * n
        try:
            decode(encode(g), expect=TrajectoryGroup)
        except DecodeError:
            assert n > MAX_ID_CHARS
            continue
        store.put(g.group_id, encode(g))  # carried, so it must be storable
        assert store.load(g.group_id).group_id == g.group_id
    g = _group(lease)
    g.group_id = "g" * (MAX_ID_CHARS + 1)
    with pytest.raises(RequestRejected, match=f"{MAX_ID_CHARS}.*group_id"):
        client.request(g, expect=Ack)  # refused as it arrives, with the reason
    assert client.request(_group(lease), expect=Ack).outcome == "accepted"
