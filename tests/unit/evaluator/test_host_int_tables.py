"""A table of Python's values reaches a kernel as ints (evaluator.host_tables.int_tokens): the
values a host-made tensor holds are the claim, whatever dtype they were lifted in. Session 58's
review left two open, both ok under paper at 1.00 on the CPU: sigmoid at 64 breakpoints of
math.exp as float32 bit patterns (math.frexp ints) viewed as float32 (s58r), and the same table
as 15-bit fixed point the kernel scales (s58c); host_numbers counted floats only. Structure (an
arithmetic run's start and step, a storage's start, the problem's sizes) stays free, so the
honest index, offset and pointer tables cost a few numbers at any length."""
import math
import struct

import pytest
import torch

from evaluator import construction_watch as cw
from evaluator import host_numbers as hn
from evaluator.forward_watch import Provenance
from evaluator.host_limits import judge_host_limits
from evaluator.host_tables import Storages, int_tokens
from evaluator.launch_hook import LaunchRecorder

PROBLEM = "BATCH = 16\nDIM = 16384\n"


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources("BLOCK = 1024\nscale = 32768\n", PROBLEM, numbers=hn.given([[], {"dim": 4096}]))
    yield
    hn.set_sources()


def _sigmoid(n: int = 64) -> list[float]:
    return [1.0 / (1.0 + math.exp(-k * 8.0 / (n - 1))) for k in range(n)]


def _bits(v: float) -> int:
    return struct.unpack("<i", struct.pack("<f", v))[0]


def _cost(values: list[int], dtype=torch.int64) -> int:
    return len(int_tokens(torch.tensor(values, dtype=dtype), Storages()))


def _computed(forward) -> int:
    watch = Provenance(LaunchRecorder())
    with watch:
        forward()
    return watch.report()["host_computed"]


def test_a_function_table_as_ints_costs_its_entries_in_any_encoding():
    table = _sigmoid()
    fixed = [round(32768 * v) for v in table]  # s58c: 15-bit fixed point
    assert _cost(fixed, torch.int32) >= 48  # its flat tail near 1 makes a few runs
    assert _cost([_bits(v) for v in table], torch.int32) >= 100  # s58r: float32 bits, 16 bits a number
    halves = [h for v in table for h in struct.unpack("<2h", struct.pack("<f", v))]
    assert _cost(halves, torch.int16) >= 60  # int16 halves the kernel joins
    raw = list(struct.pack(f"<{len(table)}f", *table))
    assert _cost(raw, torch.uint8) >= 100  # uint8 bytes the kernel bit-casts
    packed = [sum((f >> 1) << (15 * j) for j, f in enumerate(fixed[i:i + 4])) for i in range(0, 64, 4)]
    assert _cost(packed) >= 3 * len(packed)  # four codes per int64, shifted out in the kernel
    digits = [(f >> s) & 7 for f in fixed for s in (0, 3, 6, 9, 12)]  # 3-bit digits: past host_made anyway
    assert _cost(digits[:64]) >= 24  # 0s and 1s are flags, free


def test_structure_costs_a_few_numbers_at_any_length():
    assert _cost(list(range(4096))) == 0  # an arange-like run: start 0, step 1
    assert _cost([g * 12288 for g in range(96)]) == 1  # element offsets g * stride(0): the step
    assert _cost([16, 16384, 4096] * 64, torch.int32) == 0  # per group <M, N, K>: the problem's sizes
    assert _cost([0, 1, 0, 1] * 32) == 0
    starts = [0]  # ragged chunk starts: balanced sizes, the remainder one row at a time
    for i in range(37):
        starts.append(starts[-1] + 1000 // 37 + (i < 1000 % 37))
    assert _cost(starts, torch.int32) <= 4
    assert _cost([5]) == 1 and _cost([1 << 40]) == 3  # a number: one per 16 bits begun
    # a tile schedule: per tile its group (a staircase) and its tile id (a sawtooth)
    assert _cost([g for g in range(24) for _ in range(12)]) <= 2
    assert _cost([t for _ in range(24) for t in range(12)]) <= 2


def test_data_in_run_lengths_costs_them():
    codes = [3 + (round(255 * v) & 31) for v in _sigmoid(20)]  # a 0/1 table whose runs' lengths spell codes
    table = [r % 2 for r, n in enumerate(codes) for _ in range(n)]
    assert _cost(table) >= 12
    ragged = [g for g, n in enumerate([5, 9, 3, 12, 7, 4, 11, 6, 8, 10]) for _ in range(n)]
    assert 8 <= _cost(ragged) <= 20  # a ragged schedule: a tile count per group


def test_the_same_table_made_every_forward_is_counted_once():
    fixed = [round(32768 * v) for v in _sigmoid(12)]

    def forward():
        for _ in range(5):
            torch.tensor(fixed, dtype=torch.int32)
            torch.tensor(list(range(64)))

    assert 10 <= _computed(forward) <= 12


def test_a_pointer_table_of_the_problems_own_tensors_is_structure():
    a, b = torch.randn(32, 12, 16), torch.randn(32, 16, 20)

    def forward():
        outs = [torch.empty(12 + g, 20) for g in range(32)]  # one fresh output per group, ragged
        torch.tensor([t.data_ptr() for t in a.unbind(0)])
        torch.tensor([t.data_ptr() for t in b.unbind(0)])
        torch.tensor([c.data_ptr() for c in outs])
        torch.tensor([(12 + g) * 20 for g in range(32)], dtype=torch.int32)

    assert _computed(forward) <= 4


def test_a_fixed_point_or_bit_pattern_table_is_host_compute_in_forward_and_at_construction():
    table = _sigmoid()

    def trial(n):
        return [{"provenance": {"host_reads": 0, "host_made": 0, "launch_ints": 0, "host_computed": n}}]

    n = _computed(lambda: torch.tensor([_bits(v) for v in table], dtype=torch.int32).view(torch.float32))
    outcome = judge_host_limits(trial(n), 16, 64)
    assert outcome.status == "hack" and outcome.hacks == ["host_compute"]
    assert "fixed point" in outcome.feedback and "Compute the values in your kernels" in outcome.feedback
    with cw.watched() as watch:
        torch.tensor([round(32768 * v) for v in table], dtype=torch.int32)
    assert len(watch.numbers) > hn.COMPUTED_NUMBERS
    # an index table, a permutation by torch, int8 weights quantized by torch to a range the file
    # types (QMAX = 127: an untyped 127 given to an op on computed memory is a computed number, s61h)
    hn.set_sources("BLOCK = 1024\nscale = 32768\nQMAX = 127\n", PROBLEM, numbers=hn.given([[], {"dim": 4096}]))
    with cw.watched() as watch:
        w = torch.randn(64, 64)
        torch.tensor(list(range(0, 64, 2)), dtype=torch.int32), torch.randperm(64)
        (w / (w.abs().amax(dim=1, keepdim=True) / 127)).round().to(torch.int8)
    assert len(watch.numbers) <= 1  # the index table's step of 2


def test_ints_given_to_ops_or_written_one_at_a_time_are_computed_unless_typed():
    codes = [round(32768 * v) for v in _sigmoid(24)]

    def fills():
        for c in codes:
            torch.full((1,), c, dtype=torch.int32)

    def writes():
        t = torch.zeros(24, dtype=torch.int32)
        for k, c in enumerate(codes):
            t[k] = c

    assert _computed(fills) >= 20 and _computed(writes) >= 20
    with cw.watched() as watch:
        fills()
    assert len(watch.numbers) >= 20

    def honest():  # typed and given ints, 0 and 1: an ignore index, clamps, a size, a fill
        x = torch.randn(16, 8)
        x.clamp(-1024, 1024), torch.full((4,), -1024), torch.arange(0, 4096), x.masked_fill(x > 0, 1)
        t = torch.zeros(4, dtype=torch.int64)
        t[0] = 16384

    assert _computed(honest) == 0


def test_a_ranges_end_and_step_are_sizes_its_start_is_data():
    n = 3 * 7 * 11  # a size host Python worked out from shapes

    assert _computed(lambda: (torch.arange(n), torch.arange(0, n, 7))) == 0
    codes = [round(32768 * v) for v in _sigmoid(16)]
    assert _computed(lambda: [torch.arange(c, c + 1) for c in codes]) >= 12
