"""Computed numbers a forward left in memory are charged to the child's later forwards
(evaluator.kept_lifts; red team s68G: a sigmoid table lifted 4 knots a forward, ok under strict)."""
from __future__ import annotations

import math

import pytest
import torch

from evaluator import host_numbers as hn
from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources("BLOCK = 1024\n", "")
    yield
    hn.set_sources()


def _knots(first: int, count: int) -> list[float]:
    return [1.0 / (1.0 + math.exp(-(first + j) * 8.0 / 15)) for j in range(count)]


def _forward(shared: dict, body) -> dict:
    watch = Provenance(LaunchRecorder(), kept=shared)
    with watch:
        body()
    return watch.report()


def test_a_table_lifted_a_few_knots_per_forward_is_charged_whole_to_later_forwards():
    shared, module = {}, []
    counts = [_forward(shared, lambda k=k: module.append(torch.tensor(_knots(4 * k + 1, 4))))["host_computed"]
              for k in range(4)]
    assert counts[0] == 8  # four float32 knots, 2 numbers each: at the limit, not past it
    assert counts[1:] == [16, 24, 32]  # the kept knots of every earlier forward too
    later = _forward(shared, lambda: torch.cat(module))  # a forward that only uses the table
    assert later["host_computed"] == 32 and later["per_forward"]["host_computed"] == 32


def test_a_table_copied_into_a_kept_buffer_carries_its_numbers():
    shared, buf = {}, torch.zeros(16)
    for k in range(2):
        _forward(shared, lambda k=k: buf[4 * k:4 * k + 4].copy_(torch.tensor(_knots(4 * k + 1, 4))))
    assert _forward(shared, lambda: buf * 2.0)["host_computed"] == 16


def test_numbers_a_forward_lifts_and_drops_are_not_carried():
    shared = {}
    for k in range(4):  # a per-forward scale in a temporary (a kernel's 1/sqrt(d), a quantiser's scale)
        assert _forward(shared, lambda k=k: torch.tensor([_knots(k + 1, 1)[0]]) * 2.0)["host_computed"] == 2
    assert not shared
    kept = []
    for k in range(4):  # ... or kept until the next forward replaces it: charged while it lives
        report = _forward(shared, lambda k=k: (kept.clear(), kept.append(torch.tensor(_knots(k + 1, 1)))))
        assert report["host_computed"] == 2


def test_a_table_repeated_into_a_large_kept_tensor_still_carries_its_numbers(monkeypatch):
    from evaluator import kept_lifts

    monkeypatch.setattr(kept_lifts, "MAX_ELEMENTS", 64)  # followed weakly past it, not dropped
    shared, module = {}, []
    _forward(shared, lambda: module.append(torch.tensor(_knots(1, 4)).repeat(32)))
    assert _forward(shared, lambda: module[0] * 2.0)["host_computed"] == 8
    module.clear()
    assert _forward(shared, lambda: None)["host_computed"] == 0
