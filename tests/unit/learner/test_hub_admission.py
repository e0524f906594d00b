"""Lease admission by the actor's weights: no lease whose group would be stale when it is
trained (stale at birth), and no lost throughput for actors that hold the newest weights."""

import random

from test_hub import group_for, make_hub

from common.messages import encode


def send(hub, g):
    return hub.receive(g, encode(g))[0]


def train(hub):
    batch = hub.take_batch(0.01)
    if batch is None:
        return False
    hub.mark_trained([g.group_id for g in batch])
    return True


def test_actor_behind_gets_no_lease_whose_group_would_be_stale(tmp_path):
    hub = make_hub(tmp_path, gps=2, staleness=1)
    for lease in hub.grant("a", 4, policy_version=0)[0]:  # batches 0 and 1
        assert send(hub, group_for(lease, version=0)) == "accepted"
    assert train(hub) and hub.version == 1  # batch 2 opens; it is trained at version 2
    assert hub.grant("b", 2, policy_version=0) == ([], 1.0)  # version 0 would be 2 behind
    assert hub.counts()["leases"] == 0
    leases, wait = hub.grant("b", 2, policy_version=1)  # after loading version 1
    assert len(leases) == 2 and wait == 0


def test_the_refused_lease_would_have_been_dropped_stale(tmp_path):
    """Without the actor's version (not checked), the same lease is granted, and the
    group it produces on version 0 is thrown away when its batch comes up."""
    hub = make_hub(tmp_path, gps=2, staleness=1)
    for lease in hub.grant("a", 4, policy_version=0)[0]:
        assert send(hub, group_for(lease, version=0)) == "accepted"
    assert train(hub)
    late = hub.grant("b", 2)[0]
    assert len(late) == 2
    for lease in late:
        assert send(hub, group_for(lease, version=0)) == "accepted"  # 1 behind on arrival
    assert train(hub) and hub.version == 2  # batch 1
    assert not train(hub)  # batch 2 is now 2 versions behind: dropped
    assert hub.counts()["buffered"] == 0 and hub.counts()["accepted_total"] == 4


def test_partial_grant_up_to_the_versions_the_actor_can_still_serve(tmp_path):
    hub = make_hub(tmp_path, gps=2, staleness=2)
    for lease in hub.grant("a", 4, policy_version=0)[0]:  # batches 0, 1 of 0..2
        assert send(hub, group_for(lease, version=0)) == "accepted"
    assert train(hub)  # version 1: batches up to 3 open; batch 3 needs version >= 1
    assert len(hub.grant("b", 10, policy_version=0)[0]) == 2  # batch 2 only
    assert len(hub.grant("c", 10, policy_version=1)[0]) == 2  # batch 3


def test_synchronous_hub_grants_only_to_the_newest_weights(tmp_path):
    hub = make_hub(tmp_path, gps=1, staleness=3, synchronous=True)
    (lease,), _ = hub.grant("a", 1, policy_version=0)
    assert send(hub, group_for(lease, version=0)) == "accepted"
    assert train(hub)
    assert hub.grant("a", 1, policy_version=0)[0] == []  # staleness 3 would allow it
    assert hub.grant("a", 1)[0] == []  # a version not stated is not the newest
    assert len(hub.grant("a", 1, policy_version=1)[0]) == 1


def _simulate(tmp_path, state_version: bool, seed: int, steps: int = 30) -> dict:
    """Three actors that lag behind the hub's weights by random amounts ask for work,
    deliver in lease order and are trained on; returns what happened."""
    rng = random.Random(seed)
    hub = make_hub(tmp_path, gps=3, staleness=1, max_buffered_groups=64)
    loaded = {a: 0 for a in "abc"}
    outstanding = []  # (lease, version the group is generated with), in lease order
    seen = {"stale": 0, "current_asks": 0, "current_starved": 0, "current_granted": 0}
    for _ in range(4000):
        if hub.version >= steps:
            break
        event, actor = rng.random(), rng.choice("abc")
        if event < 0.3:
            loaded[actor] = hub.version  # pulled and loaded the newest weights
        elif event < 0.6:
            allowed = min(4, hub._admissible(hub.version))
            version = loaded[actor] if state_version else -1
            leases = hub.grant(actor, 4, version)[0]
            outstanding += [(lease, loaded[actor]) for lease in leases]
            if loaded[actor] == hub.version:
                seen["current_asks"] += 1
                seen["current_starved"] += len(leases) < allowed
                seen["current_granted"] += len(leases)
        elif event < 0.85 and outstanding:
            lease, version = outstanding.pop(0)
            seen["stale"] += send(hub, group_for(lease, version=version)) == "stale"
        else:
            before = hub.counts()["accepted_total"]
            train(hub)
            seen["stale"] += before - hub.counts()["accepted_total"]  # dropped in the buffer
    seen["version"] = hub.version
    return seen


def test_no_group_is_stale_at_birth_and_current_actors_are_never_starved(tmp_path):
    for seed in range(3):
        run = _simulate(tmp_path / f"checked{seed}", state_version=True, seed=seed)
        assert run["version"] == 30, "the run stalled"
        assert run["stale"] == 0
        assert run["current_asks"] > 20 and run["current_starved"] == 0
        assert run["current_granted"] > 30  # they were not merely told to wait
    unchecked = [
        _simulate(tmp_path / f"unchecked{s}", state_version=False, seed=s) for s in range(3)
    ]
    assert sum(r["stale"] for r in unchecked) > 0  # the same actors without the rule waste work
