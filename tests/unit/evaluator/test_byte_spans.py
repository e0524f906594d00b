"""evaluator.byte_spans: the per-byte span map both of the CPU meter's byte maps are (launch_bytes.Fresh:
bytes something wrote; candidate_made.Made: bytes the candidate made), and the rules each adds."""
from __future__ import annotations

import numpy as np
import torch

from evaluator.byte_spans import ByteSpans, span_bytes
from evaluator.candidate_made import Made
from evaluator.launch_bytes import Fresh


def _at(pool: torch.Tensor, offset: int, n: int) -> torch.Tensor:
    """A storage of its own over `pool`'s bytes from `offset`: memory handed out again."""
    return torch.frombuffer(memoryview(pool.numpy()[offset:offset + 4 * n]), dtype=torch.float32)


def _addrs(t: torch.Tensor, elements) -> np.ndarray:
    return np.array([t.data_ptr() + 4 * i for i in elements], dtype=np.uint64)


def test_a_launchs_stores_mark_whole_elements_and_loads_of_the_rest_are_dropped():
    spans, t = ByteSpans(), torch.empty(16)
    spans.allocated(t)
    spans.mark(_addrs(t, [0, 5]), 4)
    bits = spans.spans[t.data_ptr()][1]
    assert bits.size == 64 and np.flatnonzero(bits).tolist() == [0, 1, 2, 3, 20, 21, 22, 23]
    outside = np.array([t.data_ptr() + 4096], dtype=np.uint64)  # no span: kept
    kept = spans.marked(np.concatenate([_addrs(t, [0, 1, 5, 7]), outside]))
    assert kept.tolist() == [*_addrs(t, [0, 5]).tolist(), *outside.tolist()]


def test_a_view_marks_its_strided_bytes_and_covers_asks_for_every_one():
    spans, t = ByteSpans(), torch.empty(4, 4)
    spans.allocated(t)
    column = t[:, 1]
    spans.mark_view(column)
    assert span_bytes(column) == (1 + 3 * 4) * 4
    assert spans.covers(column) and not spans.covers(t) and not spans.covers(t[:, 3])
    spans.mark_view(t[1:2], False)
    assert not spans.covers(column)
    assert not spans.covers(t[:0])  # nothing to vouch for


def test_a_storage_allocated_over_freed_spans_forgets_every_one_it_lands_on():
    pool = torch.zeros(1 << 12, dtype=torch.uint8)
    spans = ByteSpans()
    old, beside = _at(pool, 0, 64), _at(pool, 1024, 16)
    spans.allocated(old)
    spans.allocated(beside)
    spans.mark_view(old)
    new = _at(pool, 128, 8)  # inside the freed one's bytes
    spans.allocated(new)
    assert sorted(spans.spans) == sorted([new.data_ptr(), beside.data_ptr()])
    assert not spans.spans[new.data_ptr()][1].any()


def test_fresh_forgets_a_freed_span_an_op_output_lands_on_and_marks_its_own():
    pool = torch.zeros(1 << 12, dtype=torch.uint8)
    fresh = Fresh()
    stale, beside = _at(pool, 0, 64), _at(pool, 2048, 4)
    fresh.allocated(stale)
    fresh.allocated(beside)
    fresh.overwritten(_at(pool, 64, 8))  # an op's own output over the freed span's bytes
    assert sorted(fresh.spans) == [beside.data_ptr()]
    fresh.overwritten(out := torch.empty(8))  # no span of its own: none made
    assert out.data_ptr() not in fresh.spans
    y = torch.empty(8)
    fresh.allocated(y)
    fresh.overwritten(y[:2])
    loads = _addrs(y, range(8))
    assert fresh.initialised(loads).tolist() == loads[:2].tolist()
    assert fresh.written(_addrs(y, [7]), 4).tolist() == _addrs(y, [7]).tolist()
    assert fresh.initialised(loads).tolist() == loads[[0, 1, 7]].tolist()


def test_made_keeps_a_span_for_a_finishing_op_only_and_an_unfinishing_write_unmarks():
    made = Made()
    partial = torch.empty(4, 8)
    made.allocated(partial)
    made.launch_wrote(_addrs(partial, range(32)), 4)
    assert made.holds(partial) and made.holds(partial[1])
    summed = torch.empty(8)
    made.torch_wrote(summed, False)  # PyTorch's own result: not the candidate's, no span kept
    assert summed.data_ptr() not in made.spans and not made.holds(summed)
    made.torch_wrote(summed, True)  # a finishing op's result: the candidate's
    assert made.holds(summed)
    made.torch_wrote(partial[2], False)  # PyTorch overwrote a row
    assert not made.holds(partial) and made.holds(partial[3]) and not made.holds(partial[2])
