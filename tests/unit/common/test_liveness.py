"""Backoff is capped exponential with jitter; a peer silent for `misses` intervals is dead."""

import random
import time

from common.transport import Backoff, HeartbeatSender, PeerTracker


def test_backoff_grows_then_caps():
    b = Backoff(0.1, 1.0, random.Random(0))
    delays = [b.next_delay() for _ in range(10)]
    assert 0.05 <= delays[0] <= 0.1
    assert all(d <= 1.0 for d in delays) and max(delays[5:]) >= 0.5
    b.reset()
    assert b.next_delay() <= 0.1


def test_peer_is_dead_after_missed_heartbeats():
    tracker = PeerTracker(interval_s=0.05, misses=3)
    tracker.seen(b"a")
    tracker.seen(b"b")
    time.sleep(0.1)
    tracker.seen(b"b")
    assert tracker.alive(b"a") and tracker.reap() == []
    time.sleep(0.1)
    assert tracker.reap() == [b"a"]
    assert tracker.alive(b"b") and not tracker.alive(b"a")
    assert not tracker.alive(b"never-seen")


def test_heartbeat_sender_paces_and_counts():
    hb = HeartbeatSender("actor-0", "actor", interval_s=0.05)
    first = hb.due()
    assert first is not None and first.seq == 1 and first.role == "actor"
    assert hb.due() is None
    time.sleep(0.06)
    assert hb.due().seq == 2
