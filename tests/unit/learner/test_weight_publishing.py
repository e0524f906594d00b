"""The hub's publishing bookkeeping without sockets: which versions carry deltas
(keyframes), and the relay tree (fan-out bound, routing around dead relays, no cycles)."""

import random
from concurrent.futures import Future

import torch

from common.buckets import Bucket
from learner.hub_server import RelayTree, WeightStore


def _publish(store: WeightStore, version: int) -> None:
    base = store.begin(version, deltas=True)
    f = Future()
    f.set_result(Bucket.pack([("w", torch.full((4,), float(version)))]))
    d = None
    if base is not None:
        d = Future()
        d.set_result(torch.zeros(3, dtype=torch.uint8))
    store.add(version, f, True, d)


def test_keyframes_every_k_versions_and_deltas_against_the_version_before():
    store = WeightStore(keep=2, hub_id="h", keyframe_every=3)
    seen = {}
    for v in range(5, 12):
        _publish(store, v)
        seen[v] = store.latest().delta_base
    assert seen == {5: -1, 6: 5, 7: 6, 8: -1, 9: 8, 10: 9, 11: -1}
    # Only an asker holding the delta base gets the delta; anyone else the full bucket.
    assert store.lookup(10, 0, delta_from=9)[2] is not None
    assert store.lookup(10, 0, delta_from=8)[2] is None
    assert store.lookup(10, 0)[2] is None


def test_relay_tree_is_a_chain_at_fanout_one_and_a_tree_above():
    chain = RelayTree(1)
    assert [chain.join(e) for e in "abcd"] == ["", "a", "b", "c"]
    tree = RelayTree(2)
    assert [tree.join(e) for e in "abcdefg"] == ["", "", "a", "a", "b", "b", "c"]
    assert tree.join("c") == "a"  # a resend gets the same answer


def test_relay_tree_routes_around_a_dead_relay_within_the_fanout():
    tree = RelayTree(1)
    for e in "abcd":
        tree.join(e)
    assert tree.join("b", failed="a") == ""  # a died: b takes its place at the hub
    assert tree.join("c") == "b"  # c is unaffected
    assert tree.join("d", failed="c") == "b"  # b has room for one more? no: over the bound
    hub_children = [n for n, s in tree.source.items() if s == "" and n not in tree.dead]
    assert hub_children == ["b"]


def test_relay_tree_never_forms_a_cycle_and_the_hub_serves_at_most_fanout_live_actors():
    rng = random.Random(0)
    for fanout in (1, 2, 3):
        tree = RelayTree(fanout)
        nodes = [f"n{i}" for i in range(12)]
        for _ in range(200):
            node = rng.choice(nodes)
            failed = tree.source.get(node, "") if rng.random() < 0.3 else ""
            tree.join(node, failed=failed)
            for n in tree.source:  # every chain of sources ends at the hub
                seen, cur = set(), n
                while cur:
                    assert cur not in seen
                    seen.add(cur)
                    cur = tree.source[cur]
            live = [n for n, s in tree.source.items() if s == "" and n not in tree.dead]
            assert len(live) <= fanout
