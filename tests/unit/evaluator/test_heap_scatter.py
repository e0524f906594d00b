"""evaluator.heap_scatter: a fresh Python object's address is drawn anew in each scattered
forward (a pinned forward's fork told itself from the checked forward by `hash(object())`, whose
slot the child's own work between them moved: session 64's open item, s65H)."""
from __future__ import annotations

from evaluator import heap_scatter
from evaluator.output_noise import random_uninitialised


def _fresh() -> int:
    return hash(object())


def test_a_fresh_object_lands_on_many_slots_over_scattered_forwards():
    plain = {_fresh() for _ in range(30)}
    scattered = set()
    for _ in range(30):
        with heap_scatter.scattered():
            scattered.add(_fresh())
    assert len(plain) <= 2 and len(scattered) >= 20, (len(plain), len(scattered))


def test_the_checked_and_pinned_forwards_mode_scatters_only_where_asked():
    seen = set()
    for _ in range(20):
        with random_uninitialised(True):
            seen.add(_fresh())
    assert len(seen) >= 12
    assert random_uninitialised().scatter is None
