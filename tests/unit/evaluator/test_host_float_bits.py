"""Host-computed numbers count by the information they carry, not by how many there are
(session 60, s60a): a computed float by its bits at the precision it reaches
(`host_numbers.float_cost`; red team s59c: 8 float64 words carrying 32 12-bit sigmoid codes in
their mantissas, bit-cast in a kernel, were 8 numbers), and Python numbers placed one by one
into a storage by the order they were placed in (`placed_order`: typed digits one fill each)."""
from __future__ import annotations

import math

import pytest
import torch
import triton
import triton.language as tl

from evaluator import construction_watch as cw
from evaluator import host_numbers as hn
from evaluator.host_numbers import COMPUTED_NUMBERS
from evaluator.kernel_constants import runtime_floats

HEX = tuple(range(16))


@pytest.fixture(autouse=True)
def _sources():
    hn.set_sources(repr(HEX) + "\nBLOCK = 1024\n")
    yield
    hn.set_sources()


def _words() -> list[float]:
    """s59c's 8 float64 words: four 12-bit sigmoid codes in each mantissa."""
    codes = [min(4095, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 8192)) for k in range(32)]
    return [1.0 + sum(codes[4 * w + j] << (12 * j) for j in range(4)) * 2.0 ** -52 for w in range(8)]


def _digits() -> list[int]:
    """32 8-bit sigmoid codes as 64 base-16 digits of the typed HEX."""
    out = []
    for k in range(32):
        code = min(255, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 512))
        out += [HEX[code >> 4], HEX[code & 15]]
    return out


@triton.jit
def _scaled(x_ptr, scale, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    pass


def test_a_computed_float_costs_its_bits_at_the_precision_it_reaches():
    v = 1.0 / math.sqrt(80.0)
    assert (hn.float_cost(v, 64), hn.float_cost(v, 32), hn.float_cost(v, 16)) == (4, 2, 1)
    # short mantissas carry little: a power of two, a bfloat16 value held in a float32
    assert hn.float_cost(0.125, 64) == hn.float_cost(1.0 / 1024, 32) == 1
    assert hn.float_cost(float(torch.tensor(0.3, dtype=torch.bfloat16)), 32) == 1
    assert hn.float_cost(math.inf, 64) == hn.float_cost(1e300, 32) == 1
    assert len(hn.computed([v], 32)) == 2 and len(hn.computed([v], 64)) == 4


def test_floats_packing_a_table_in_their_mantissas_are_its_bits():
    words = _words()
    assert len({v for v in hn.computed(words) if type(v) is float}) == COMPUTED_NUMBERS  # at the cap
    assert len(hn.tensor_computed(torch.tensor(words, dtype=torch.float64))) == 4 * COMPUTED_NUMBERS
    with cw.watched() as watch:  # lifted at construction, or one float64 fill each
        torch.tensor(words, dtype=torch.float64)
    assert len(watch.computed_numbers()) > COMPUTED_NUMBERS
    with cw.watched() as watch:
        [torch.full((1,), w, dtype=torch.float64) for w in words]
    assert len(watch.computed_numbers()) > COMPUTED_NUMBERS
    # the same floats in float32 keep 24 bits: 2 each, still past the cap
    assert len(hn.tensor_computed(torch.tensor(words, dtype=torch.float32))) <= 2 * COMPUTED_NUMBERS
    from evaluator.host_limits import judge_host_limits

    trial = [{"provenance": {"host_reads": 0, "host_made": 8, "launch_ints": 0, "host_computed": 32}}]
    outcome = judge_host_limits(trial, 16, 64)  # the feedback says how a float is counted
    assert outcome.hacks == ["host_compute"] and "a float64 4" in outcome.feedback


def test_an_op_reads_its_values_at_its_widest_floating_precision():
    x = torch.zeros(4, dtype=torch.bfloat16)
    assert hn.op_bits((x, 0.3), {}, x) == 32  # a bfloat16 op computes in float32
    assert hn.op_bits(((1,), 0.3), {}, torch.zeros(1, dtype=torch.float64)) == 64
    assert hn.op_bits((torch.zeros(2, dtype=torch.int32), 3), {}, torch.zeros(2, dtype=torch.int32)) == 64
    from evaluator.forward_watch import Provenance
    from evaluator.launch_hook import LaunchRecorder

    watch = Provenance(LaunchRecorder())
    with watch:  # an honest scale on float32 data: one float, two numbers
        torch.ones(8) * (1.0 / math.sqrt(80.0))
    assert watch.report()["host_computed"] == 2


def test_a_launch_float_is_float32_where_its_parameter_is_not_constexpr():
    v = 1.0 / math.sqrt(80.0)
    floats, args, kwargs = runtime_floats(_scaled, (None, v, 8), {"SHIFT": v, "BLOCK": 1024})
    assert floats == [v] and args == (None, None, 8) and kwargs == {"SHIFT": v, "BLOCK": 1024}
    assert len(hn.launch_computed(_scaled, (None, v, 8), {"BLOCK": 1024, "SHIFT": 0.5})) == 2
    # a constexpr float is folded by the compiler in float64: 4 numbers
    assert len(hn.launch_computed(_scaled, (None, 0.5, 8), {"BLOCK": 1024, "SHIFT": v})) == 4


def test_typed_digits_placed_one_by_one_cost_their_order():
    digits = _digits()
    assert all(hn.lone_int(d) == set() for d in digits)  # every digit a literal of the file
    with cw.watched() as watch:  # one int fill per digit, joined in the order made
        torch.cat([torch.full((1,), d, dtype=torch.int32) for d in digits])
    assert len(watch.computed_numbers()) > COMPUTED_NUMBERS
    with cw.watched() as watch:  # element writes into a zeroed buffer
        table = torch.zeros(64, dtype=torch.int32)
        for k, d in enumerate(digits):
            table[k] = d
    assert len(watch.computed_numbers()) > COMPUTED_NUMBERS
    from evaluator.forward_watch import Provenance
    from evaluator.launch_hook import LaunchRecorder

    watch = Provenance(LaunchRecorder())
    with watch:  # in a forward (the first, its table cached)
        torch.cat([torch.full((1,), float(d) / 16) for d in digits])
    assert watch.report()["host_computed"] > COMPUTED_NUMBERS
    watch = Provenance(LaunchRecorder())
    with watch:
        table = torch.zeros(64, dtype=torch.int32)
        for k, d in enumerate(digits):
            table[k] = d
    assert watch.report()["host_computed"] > COMPUTED_NUMBERS


def test_digits_added_one_by_one_into_any_memory_cost_their_order():
    """An op writing part of a storage adds its values to the storage's sequence whatever the
    storage held (a buffer a kernel zeroed: no constant), in forward and at construction."""
    from evaluator.forward_watch import Provenance
    from evaluator.launch_hook import LaunchRecorder

    digits, x = _digits(), torch.randn(64)

    def added(table):
        for k, d in enumerate(digits):
            table[k:k + 1].add_(d)

    watch = Provenance(LaunchRecorder())
    with watch:
        added((x * 0).to(torch.int32))  # computed from the input: no constant
    assert watch.report()["host_computed"] > COMPUTED_NUMBERS
    for buffer in (torch.zeros(64, dtype=torch.int32), torch.randn(64).mul_(0.0)):  # a drawn one too
        with cw.watched() as built:
            added(buffer)
        assert len(built.computed_numbers()) > COMPUTED_NUMBERS
    watch = Provenance(LaunchRecorder())
    with watch:  # a compute op's whole output starts no sequence: glue chains stay short
        y = x
        for v in (0.5, 2.0, 0.5, 3.0, 0.25, 2.0, 0.5, 3.0, 2.0, 0.25) * 2:
            y = y * v
    assert watch.report()["host_computed"] == 0


def test_honest_initialisation_of_parts_is_a_pattern():
    hn.set_sources("STD, BOUND = 0.02, 0.25\n")  # a draw's parameters are host numbers (s62b): typed here
    with cw.watched() as built:  # per head and per row initialisation of one weight
        w = torch.empty(8, 16, 16)
        for h in range(8):
            w[h].normal_(0.0, 0.02)
        for r in range(16):
            w[:, r].uniform_(-0.25, 0.25)
    assert built.computed_numbers() == set()


def test_honest_constants_place_few_numbers_or_a_pattern():
    from evaluator.forward_watch import Provenance
    from evaluator.launch_hook import LaunchRecorder

    def honest():
        for _ in range(12):  # per-layer fills of 0 and 1
            torch.full((8,), 0.0), torch.zeros(8).fill_(1.0)
        torch.arange(0, 64, 2), torch.ones(16, 16).triu(1).bool()  # an arange, a causal mask
        torch.cat([torch.full((4,), v) for v in (0.0, 1.0) * 16])  # a repeated pattern
        table = torch.zeros(16, dtype=torch.int32)
        for k in range(16):  # element writes of a loop's counter
            table[k] = k

    with cw.watched() as watch:
        honest()
    assert watch.computed_numbers() == set()
    watch = Provenance(LaunchRecorder())
    with watch:
        honest()
    assert watch.report()["host_computed"] == 0
