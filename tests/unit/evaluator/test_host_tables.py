"""host_made counts what host Python chose in a torch.tensor of plain ints (evaluator.host_tables):
a grouped kernel's device table of the problem's own addresses, sizes and strides is structure at
any group count (honest round s56: Triton tutorial 08's grouped GEMM, 144 ints at 16 groups, was
refused as host_compute on an H100), while tables of values Python computed still count one
number per element."""
from __future__ import annotations

import math
import random

import pytest
import torch
import torch.nn as nn

from evaluator.forward_watch import Provenance
from evaluator.host_tables import MAX_READ, Storages, table_numbers
from evaluator.launch_hook import LaunchRecorder
from evaluator.watched_reads import plain_numbers_known


@pytest.fixture
def candidate_tensor():
    """torch.tensor as a candidate child has it (plain Python data told apart)."""
    real = torch.tensor
    plain_numbers_known()
    try:
        yield
    finally:
        torch.tensor = real


def _made(forward) -> int:
    watch = Provenance(LaunchRecorder())
    with watch:
        forward()
    return watch.report()["host_made"]


def _grouped_gemm_tables(groups: int) -> None:
    """Tutorial 08's host side: per group the A, B, C addresses, <M, N, K> and leading dims."""
    a, b = torch.randn(groups, 12, 16), torch.randn(groups, 16, 20)
    a_addrs, b_addrs, c_addrs, sizes, lds, outs = [], [], [], [], [], []
    for x, y in zip(a.unbind(0), b.unbind(0)):
        c = torch.empty(12, 20)  # one fresh output per group
        outs.append(c)
        a_addrs.append(x.data_ptr())
        b_addrs.append(y.data_ptr())
        c_addrs.append(c.data_ptr())
        sizes += [12, 20, 16]
        lds += [x.stride(0), y.stride(0), c.stride(0)]
    for table in (a_addrs, b_addrs, c_addrs):
        torch.tensor(table)
    torch.tensor(sizes, dtype=torch.int32)
    torch.tensor(lds, dtype=torch.int32)


def test_a_grouped_gemms_pointer_and_size_tables_cost_the_same_at_any_group_count(candidate_tensor):
    few, many = _made(lambda: _grouped_gemm_tables(4)), _made(lambda: _grouped_gemm_tables(96))
    assert many == few <= 32  # 864 ints at 96 groups, counted one each before


def test_int_tables_python_computed_still_count_one_number_per_element(candidate_tensor):
    def sigmoid_fixed_point():  # a table a kernel would look up instead of computing
        torch.tensor([int(65535 / (1 + math.exp(-(i - 2048) / 256))) for i in range(4096)])

    def offsets_a_function_chose():  # addresses into one storage at computed positions
        x = torch.empty(4096)
        torch.tensor([x[int(4095 / (1 + math.exp(-(i - 128) / 16))):].data_ptr() for i in range(256)])

    def storages_of_chosen_sizes():  # the gaps between fresh storages are the sizes chosen
        made = [torch.empty(1 + int(64 / (1 + math.exp(-(i - 128) / 16)))) for i in range(256)]
        torch.tensor([t.data_ptr() for t in made])

    def storages_out_of_order():  # the order a permutation picks them in
        made = [torch.empty(16) for _ in range(256)]
        order = list(range(256))
        random.Random(0).shuffle(order)
        torch.tensor([made[i].data_ptr() for i in order])

    for forward in (sigmoid_fixed_point, offsets_a_function_chose, storages_of_chosen_sizes,
                    storages_out_of_order):
        assert _made(forward) > 64, forward.__name__


def test_floats_and_short_mixed_or_long_data_count_every_element():
    storages = Storages()
    assert table_numbers([float(i) for i in range(100)], storages) == 100
    assert table_numbers([1, 2.0, 3], storages) == 3
    assert table_numbers([True, False] * 40, storages) == 80
    assert table_numbers([7], storages) == 1
    assert table_numbers(list(range(0, 3000, 3)), storages) == 3  # start, step, length
    assert table_numbers([[5, 6, 7]] * 50, storages) == 1 + 3 * 3  # period 3: three constant columns
    assert table_numbers(list(range(MAX_READ + 1)), storages) == MAX_READ + 1  # too long to read


def test_construction_counts_tables_the_same_way(candidate_tensor):
    """A table built in __init__ (an MoE's per-expert weight addresses) is structure there too;
    a Python-computed int table stays Python's values (construction_watch.HOST_VALUES)."""
    from evaluator import construction_watch as cw

    def experts():
        weight = nn.Parameter(torch.randn(96, 8, 8))
        return weight, torch.tensor([w.data_ptr() for w in weight.unbind(0)]), torch.tensor([8, 8, 8] * 96)

    def fixed_point_sigmoid():
        return torch.tensor([int(65535 / (1 + math.exp(-(i - 2048) / 256))) for i in range(4096)])

    with cw.watched() as watch:
        kept = experts()
    assert watch.computed == [] and watch.python_made == 0 and kept
    with cw.watched() as watch:
        kept = fixed_point_sigmoid()
    assert [t.numel() for t in watch.computed] == [4096] and watch.python_made > 64


def test_a_join_costs_the_order_host_python_chose():
    """Red team rt78: 256 one-element tensors joined in the order of a table's bytes spelled
    the table with no number anywhere; a join in made order, or of one tensor's chunks in
    place, is free."""
    from evaluator.host_tables import join_numbers

    storages = Storages()
    digits = [torch.full((1,), float(j)) for j in range(256)]
    for d in digits:
        storages.touched([], [d])
    gen = torch.Generator().manual_seed(0)
    order = torch.randint(0, 256, (512,), generator=gen).tolist()
    picked = [digits[b] for b in order]
    storages.touched(picked, [])
    assert join_numbers("cat", (picked,), storages) > 128
    assert join_numbers("cat", (digits,), storages) == 0  # made order
    x = torch.randn(8, 6)
    storages.touched([x], [])
    assert join_numbers("cat", (list(x.chunk(3, dim=0)),), storages) == 0  # chunks in place
    assert join_numbers("cat", (digits[::-1],), storages) == 0  # reversed: a backward RNN's steps
    assert join_numbers("cat", ([digits[1], digits[0], digits[1]],), storages) == 1
    assert join_numbers("add", (x, x), storages) == 0


def test_a_row_offset_table_at_gpu_row_counts_costs_its_run(candidate_tensor):
    """An honest varlen-style launcher's row offsets (row * hidden for every row), lifted by
    torch.tensor: a run at any row count. At an H100's 8192 rows the list was past the plain-data
    cap and cost all 8192 (host_compute: honest s59a_02, session 59)."""
    hidden = 4096

    def offsets(rows: int):
        return lambda: torch.tensor([r * hidden for r in range(rows)], dtype=torch.int64)

    assert _made(offsets(8192)) == _made(offsets(64)) <= 4
    assert _made(offsets(32768)) <= 4


def test_a_join_of_picks_in_one_storage_costs_their_places():
    """Red team s65f: a torch.stack of sixteen 0-dim views of a kernel's arange at a sigmoid's
    codes, ascending, was one run of the join's order: no number (ok under strict at 0.9991);
    its offsets are a table's column now (`host_tables.join_tokens`). A join of one tensor's
    chunks or of separate storages costs a step at most."""
    from evaluator.host_tables import join_tokens

    lut = torch.arange(1 << 16, dtype=torch.int32)
    codes = [round(65535 / (1.0 + math.exp(-k * 8.0 / 15))) for k in range(16)]
    assert len(join_tokens("stack", ([lut[c] for c in codes],))) >= 12
    x = torch.randn(4096)
    assert len(join_tokens("cat", (list(x.chunk(16)),))) <= 1
    assert join_tokens("stack", ([torch.randn(3), torch.randn(3)],)) == set()
    assert join_tokens("add", (x, x)) == set()
