"""Hub bookkeeping: admission control, lease expiry, dedupe, durable acks, staleness,
and crash/restore without losing or double-training a group."""

import torch

from common.config.hub import HubConfig
from common.messages import ProblemPayload, Trajectory, TrajectoryGroup, Turn, encode, new_id
from common.metrics import Metrics
from common.verdict import Verdict
from learner.group_store import GroupStore
from learner.hub import Hub, PromptSource, made_by_discarded_weights
from learner.ledger import LEDGER, read

PROBLEMS = [ProblemPayload(name=f"p{i}", source=f"# problem {i}") for i in range(5)]


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def make_hub(tmp_path, clock=None, gps=2, staleness=1, **cfg):
    cfg.setdefault("lease_timeout_s", 60)
    return Hub(
        HubConfig(**cfg),
        groups_per_step=gps,
        max_staleness=staleness,
        n_samples=2,
        max_turns=2,
        source=PromptSource(PROBLEMS, seed=0),
        store=GroupStore(tmp_path / "groups"),
        metrics=Metrics("learner"),
        clock=clock or Clock(),
    )


def group_for(lease, version=0, group_id=None, n_resp=4, bad=False):
    def turn():
        return Turn(
            prompt_ids=torch.arange(3, dtype=torch.int32),
            response_ids=torch.arange(n_resp, dtype=torch.int32),
            logprobs=torch.zeros(n_resp - (1 if bad else 0)),
            versions=torch.full((n_resp,), version, dtype=torch.int32),
            verdict=Verdict("ok", correct=True, reward=1.0),
        )

    return TrajectoryGroup(
        request_id="r",
        group_id=group_id or new_id(),
        lease_id=lease.lease_id,
        prompt_id=lease.prompt_id,
        problem_name=lease.problem.name,
        actor_id="a",
        trajectories=[Trajectory(sample_index=i, turns=[turn()]) for i in range(2)],
    )


def send(hub, g):
    return hub.receive(g, encode(g))[0]


def test_admission_control_bounds_outstanding_work(tmp_path):
    hub = make_hub(tmp_path, gps=2, staleness=1)  # bound at version 0: (1 + 0 + 1) * 2 = 4
    leases, wait = hub.grant("a", 10)
    assert len(leases) == 4 and wait == 0
    assert hub.grant("b", 1) == ([], 1.0)
    assert send(hub, group_for(leases[0])) == "accepted"
    assert hub.grant("b", 1)[0] == []  # accepted + in flight is still 4
    batch = [g.group_id for g in hub.take_batch(0.1) or []]
    assert batch == []  # one group is not a batch of two
    assert send(hub, group_for(leases[1])) == "accepted"
    hub.mark_trained([g.group_id for g in hub.take_batch(0.1)])
    assert hub.version == 1 and len(hub.grant("b", 10)[0]) == 2


def test_buffer_limit_stops_granting(tmp_path):
    hub = make_hub(tmp_path, gps=1, staleness=100, max_buffered_groups=2)
    assert len(hub.grant("a", 10)[0]) == 2


def test_expired_lease_is_reissued_and_counted_once(tmp_path):
    clock = Clock()
    hub = make_hub(tmp_path, clock=clock, gps=1, staleness=5, lease_timeout_s=30)
    (first,), _ = hub.grant("slow-actor", 1)
    clock.t += 31
    leases, _ = hub.grant("fast-actor", 10)
    reissued = [l for l in leases if l.prompt_id == first.prompt_id]
    assert len(reissued) == 1 and reissued[0].lease_id != first.lease_id
    assert send(hub, group_for(reissued[0])) == "accepted"
    assert send(hub, group_for(first)) == "duplicate"  # the slow actor's late group
    assert hub.counts()["accepted_total"] == 1


def test_resent_group_is_a_duplicate(tmp_path):
    hub = make_hub(tmp_path)
    (lease,), _ = hub.grant("a", 1)
    g = group_for(lease)
    assert send(hub, g) == "accepted"
    assert send(hub, g) == "duplicate"
    assert hub.counts()["buffered"] == 1


def test_ack_only_after_the_group_is_on_disk(tmp_path):
    hub = make_hub(tmp_path)
    (lease,), _ = hub.grant("a", 1)
    g = group_for(lease)
    assert send(hub, g) == "accepted"
    stored = hub.store.load(g.group_id)
    assert stored.prompt_id == g.prompt_id
    assert torch.equal(
        stored.trajectories[1].turns[0].versions, g.trajectories[1].turns[0].versions
    )


def test_stale_groups_are_dropped_and_their_prompt_reissued(tmp_path):
    hub = make_hub(tmp_path, gps=1, staleness=0)
    (l1,), _ = hub.grant("a", 1)
    assert send(hub, group_for(l1, version=0)) == "accepted"
    hub.mark_trained([g.group_id for g in hub.take_batch(0.1)])
    (l2,), _ = hub.grant("a", 1)
    hub.version += 1  # the learner moved on while the actor generated with version 0
    assert send(hub, group_for(l2, version=0)) == "stale"
    hub.version -= 1
    assert l2.prompt_id in [l.prompt_id for l in hub.grant("a", 1)[0]]


def test_invalid_groups_are_rejected(tmp_path):
    hub = make_hub(tmp_path)
    (lease,), _ = hub.grant("a", 1)
    g = group_for(lease)
    g.prompt_id = "not-a-prompt"
    assert hub.receive(g, encode(g))[0] == "rejected"
    g = group_for(lease)
    g.problem_name = "other"
    outcome, detail = hub.receive(g, encode(g))
    assert outcome == "rejected" and "other" in detail
    g = group_for(lease, bad=True)
    outcome, detail = hub.receive(g, encode(g))
    assert outcome == "rejected" and "logprobs" in detail
    assert hub.counts()["accepted_total"] == 0


def test_crash_and_restore_loses_nothing_and_trains_nothing_twice(tmp_path):
    """Accept, train, checkpoint, accept and train more, crash; restore from the
    checkpoint and finish: every accepted prompt is trained exactly once in the
    history that survives (checkpointed steps + steps after the restore)."""
    hub = make_hub(tmp_path, gps=2, staleness=3)
    history = []  # per step: prompt ids trained

    def step(h):
        batch = h.take_batch(0.1)
        if batch is None:
            return False
        history.append([g.prompt_id for g in batch])
        h.mark_trained([g.group_id for g in batch])
        return True

    accepted = set()
    for _ in range(3):
        for lease in hub.grant("a", 2)[0]:
            g = group_for(lease, version=hub.version)
            if send(hub, g) == "accepted":
                accepted.add(g.prompt_id)
        step(hub)
    ckpt, ckpt_steps = hub.state_dict(), len(history)
    hub.checkpoint_done()
    inflight = hub.grant("a", 4)[0]
    for lease in inflight[:3]:  # accepted after the checkpoint, then the learner dies
        g = group_for(lease, version=hub.version)
        assert send(hub, g) == "accepted"
        accepted.add(g.prompt_id)
    step(hub)  # trained but never checkpointed: lost with the crash

    restored = make_hub(tmp_path, gps=2, staleness=3)
    restored.load_state_dict(ckpt)
    del history[ckpt_steps:]
    late = group_for(inflight[3], version=restored.version)  # a pre-crash lease finishing
    assert send(restored, late) == "accepted"
    accepted.add(late.prompt_id)
    while step(restored):
        pass
    trained = [p for s in history for p in s]
    waiting = {g.prompt_id for g in restored.buffer.values()}  # less than a batch left
    assert len(waiting) < 2
    assert len(trained) == len(set(trained)), "a group was trained twice"
    assert not waiting & set(trained)
    assert set(trained) | waiting == accepted, "an accepted group was lost"
    restored.checkpoint_done()
    assert restored.store.ids() == sorted(restored.buffer)


def test_group_that_goes_stale_in_the_buffer_is_dropped_and_reissued(tmp_path):
    hub = make_hub(tmp_path, gps=1, staleness=1)
    l1, l2 = hub.grant("a", 2)[0]
    assert send(hub, group_for(l1, version=0)) == "accepted"
    assert send(hub, group_for(l2, version=0)) == "accepted"
    hub.mark_trained([g.group_id for g in hub.take_batch(0.1)])
    hub.version += 1  # two steps on, the second group is 2 versions behind
    assert hub.take_batch(0.1) is None
    assert hub.counts()["buffered"] == 0 and hub.store.ids() != []  # trained file awaits ckpt
    assert l2.prompt_id in [l.prompt_id for l in hub.grant("a", 5)[0]]


def test_the_lineage_of_incarnations_survives_two_restarts(tmp_path):
    """A (published up to 9) is resumed by B from A's checkpoint at 7; B publishes 8'..10'
    and checkpoints at 10; C resumes from that. An actor that slept through B still holds
    A's 9: C must see it as discarded weights, though 9 <= C's base 10."""

    def trained_to(hub, version):
        while hub.version < version:
            hub.mark_trained([])

    a = make_hub(tmp_path / "a", staleness=20)
    a.hub_id = "A"
    trained_to(a, 7)
    b = make_hub(tmp_path / "b", staleness=20)
    b.hub_id = "B"
    b.load_state_dict(a.state_dict())
    assert b.lineage == {"A": 7}
    trained_to(b, 10)
    c = make_hub(tmp_path / "c", staleness=20)
    c.hub_id = "C"
    c.load_state_dict(b.state_dict())
    assert c.lineage == {"A": 7, "B": 10}

    def discarded(weights):
        return made_by_discarded_weights(weights, "C", 10, c.lineage)

    assert discarded({"A": 9}) and discarded({"A": 8}) and not discarded({"A": 7})
    assert not discarded({"B": 10}) and discarded({"B": 11})
    assert not discarded({"C": 12}) and not discarded({"A": 5, "B": 9, "C": 11})
    # An incarnation no checkpoint descends from: its versions survive up to C's base.
    assert not discarded({"X": 10}) and discarded({"X": 11})
    assert not made_by_discarded_weights({"A": 9}, "C", None, c.lineage)  # nothing published
    # A fresh start keeps no lineage of its own id.
    fresh = make_hub(tmp_path / "f")
    fresh.hub_id = "F"
    fresh.load_state_dict(fresh.state_dict())
    assert fresh.lineage == {}


def test_a_damaged_stored_group_is_quarantined_and_its_prompt_handed_out_again(tmp_path):
    hub = make_hub(tmp_path)
    leases, _ = hub.grant("a", 2)
    good, torn = group_for(leases[0]), group_for(leases[1])
    assert send(hub, good) == "accepted" and send(hub, torn) == "accepted"
    path = tmp_path / "groups" / f"{torn.group_id}.grp"
    path.write_bytes(path.read_bytes()[:40])  # cut by a failing disk
    state = hub.state_dict()
    restarted = make_hub(tmp_path)
    restarted.load_state_dict(state)  # must not raise: the run goes on
    assert list(restarted.buffer) == [good.group_id]
    assert (tmp_path / "quarantine" / path.name).exists() and not path.exists()
    line = [e for e in read(tmp_path / "groups" / LEDGER) if e["event"] == "quarantined"]
    assert [(e["group_id"], e["prompt_id"]) for e in line] == [(torn.group_id, torn.prompt_id)]
    assert torn.prompt_id in [l.prompt_id for l in restarted.grant("a", 1)[0]]
