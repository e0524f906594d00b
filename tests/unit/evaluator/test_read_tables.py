"""A lifted int table host Python derived from a kernel's output it read back whole (counts per
expert, per chunk) costs one computed number, not one per entry (evaluator.read_tables, session
65): honest MoE offsets and cu_seqlens were host_compute (s65f_01, s65f_02). Picks the host chose
(elements, a gather, memory no launch wrote, a block per entry) derive nothing."""
from __future__ import annotations

from itertools import accumulate

import pytest
import torch

from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder
from evaluator.read_tables import ReadBacks, derived
from evaluator.watched_reads import plain_numbers_known

COUNTS = (1043, 0, 977, 1201, 5, 1100, 998, 1024, 1500, 700, 301, 1999, 860, 1010, 1, 1089)


@pytest.fixture
def candidate_tensor():
    """torch.tensor as a candidate child has it (plain Python data told apart)."""
    real = torch.tensor
    plain_numbers_known()
    try:
        yield
    finally:
        torch.tensor = real


def _moe_align(counts, block):
    offsets, ids, total = [], [], 0
    for e, c in enumerate(counts):
        q = -(-c // block)
        offsets.append(total)
        ids += [e] * q
        total += q * block
    return offsets, ids


def test_prefix_sums_padded_counts_and_block_ids_are_derived():
    offsets, ids = _moe_align(COUNTS, 64)
    assert derived(offsets, COUNTS) == ("starts", "padded", 64)
    assert derived(ids, COUNTS) == ("ids", "blocks", 64)
    assert derived([0, *accumulate(COUNTS)], COUNTS) == ("exclusive", "as read", 1)
    assert derived(list(accumulate(COUNTS)), COUNTS) == ("inclusive", "as read", 1)
    assert derived(list(COUNTS), COUNTS)[0] == "values"


def test_a_table_the_host_bent_derives_nothing():
    cu = [0, *accumulate(COUNTS)]
    assert derived([*cu[:5], cu[5] + 1, *cu[6:]], COUNTS) is None  # one entry moved
    assert derived([0, *accumulate(reversed(COUNTS))], COUNTS) is None  # another order
    per_entry = [0, *accumulate(-(-c // b) * b for c, b in zip(COUNTS, [1, 2, 4, 8] * 4))]
    assert derived(per_entry, COUNTS) is None  # a block per entry: two bits each
    assert derived(cu + [7], COUNTS) is None  # a derived table with codes after it


def test_only_a_whole_storage_a_launch_wrote_read_in_order_is_a_source():
    t = torch.tensor(COUNTS, dtype=torch.int32)
    whole = ReadBacks()
    for row in t.unbind(0):
        whole.read(row, [int(row)], True)
    assert whole.whole == [COUNTS]
    picks = ReadBacks()  # elements at positions the host chose
    for i in (3, 7, 9):
        picks.read(t[i], [int(t[i])], True)
    assert picks.whole == []
    partial = ReadBacks()  # the first half only
    for row in t[:8].unbind(0):
        partial.read(row, [int(row)], True)
    assert partial.whole == []
    unwritten = ReadBacks()  # no launch wrote it
    for row in t.unbind(0):
        unwritten.read(row, [int(row)], False)
    assert unwritten.whole == []


def _computed(read, written: bool, copied: bool = False, view=lambda buf: buf) -> int:
    """host_computed of a forward that reads `counts` back with .item() in order (as a launch's
    output where `written`: handed fresh, nothing written into it since unless `copied`) and
    lifts the offsets `read` makes of what it read."""
    counts = torch.tensor(COUNTS, dtype=torch.int32)
    watch = Provenance(LaunchRecorder())
    with watch:
        buf = torch.zeros(len(COUNTS), dtype=torch.int32)
        buf.copy_(counts)
        key = watch._key(buf)
        if written:  # as `Provenance.launched` leaves a storage a launch was handed fresh
            watch.fed.add(key)
            watch.made.discard(key)
            watch.storages.reads.overwritten.discard(key)
        if copied:
            buf.copy_(counts)  # the host's values put into it after the launch (the same ones: glue)
        torch.tensor(read(view(buf)), dtype=torch.int32)
    return watch.report()["host_computed"]


def test_offsets_of_a_whole_read_back_cost_one_number(candidate_tensor):
    whole = lambda buf: [0, *accumulate(int(v.item()) for v in buf.unbind(0))]  # noqa: E731
    assert _computed(whole, True) == 1
    assert _computed(whole, False) > 8
    picks = lambda buf: [0, *accumulate(int(buf[i].item()) for i in (0, 2, 3, 5, 7, 8, 11, 12, 13, 15))]  # noqa: E731
    assert _computed(picks, True) > 8
    assert _computed(whole, True, copied=True) > 8


def test_a_whole_copy_of_a_launch_output_reads_as_it_and_a_part_or_a_gather_does_not(candidate_tensor):
    """GPU code reads `counts.cpu().tolist()`: a whole copy holds the launch's values; a copy of
    part of it, or of a gather of its elements, is the host's picks."""
    whole = lambda buf: [0, *accumulate(int(v.item()) for v in buf.unbind(0))]  # noqa: E731
    assert _computed(whole, True, view=lambda buf: buf.clone()) == 1
    assert _computed(whole, True, view=lambda buf: buf[:12].clone()) > 8
    assert _computed(whole, True, view=lambda buf: buf[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14]].clone()) > 8


def test_a_launch_int_read_or_summed_from_a_launch_output_is_explained():
    """Session 66: a launch int the host read from memory a launch wrote, or a prefix sum or
    block total of a whole read (cu_seqlens' total, an MoE's block count), is the kernel's
    number (`ReadBacks.explains`); an int it was never handed is not."""
    reads, t = ReadBacks(), torch.tensor(COUNTS, dtype=torch.int32)
    for i in range(len(COUNTS)):
        reads.read(t[i], [COUNTS[i]], True)
    assert reads.explains(sum(COUNTS)) and reads.explains(COUNTS[3])
    assert reads.explains(sum(-(-c // 64) for c in COUNTS))  # a grouped launch's block count
    assert not reads.explains(sum(COUNTS) + 1)
    unread = ReadBacks()
    unread.read(t[0], [COUNTS[0]], False)  # an input's value, no launch's output
    assert not unread.explains(COUNTS[0])
    picks, lut = ReadBacks(), torch.arange(1 << 16, dtype=torch.int32)
    for c in (40000, 50000):  # `.item()` picks of a kernel's arange at a table's codes
        picks.read(lut[c], [c], True)
    assert not picks.explains(40000) and not picks.explains(50000)
    one = ReadBacks()
    one.read(torch.tensor([12345], dtype=torch.int32)[0], [12345], True)  # a kernel's one total
    assert one.explains(12345)
