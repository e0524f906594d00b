"""What the order of Python's values spells (red team s59c): a table written as digits over a
few typed floats, in a lifted tensor, a tuple argument or one float or one kernel choice per
launch, is counted by its order (`host_numbers.order_numbers`, `launch_sizes.DataInts._chose`),
not by its distinct values; a coefficient list, a fill, a per-layer loop stay free."""
from __future__ import annotations

import math

import torch

from evaluator import construction_watch as cw
from evaluator import host_numbers as hn
from evaluator.host_numbers import COMPUTED_NUMBERS
from evaluator.launch_sizes import DataInts

ALPHABET = tuple(0.03125 * (2 * i + 1) for i in range(16))


def _digits() -> list[float]:
    out = []
    for k in range(32):
        code = min(255, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 512))
        out += [ALPHABET[code >> 4], ALPHABET[code & 15]]
    return out


class _Kernel:  # a stand-in for a JITFunction: DataInts keys kernels by their function
    def __init__(self, fn):
        self.fn = fn


def _put(t_ptr, index, place, digit):
    pass


def _bit0(t_ptr, c_ptr):
    pass


def _bit1(t_ptr, c_ptr):
    pass


def _next(t_ptr, c_ptr):
    pass


def _norm(x_ptr, y_ptr, eps, n):
    pass


def test_a_table_spelled_over_typed_values_costs_its_order():
    hn.set_sources(repr(ALPHABET))
    try:
        assert hn.computed(_digits()) == set()  # every digit is a literal of the file
        assert len(hn.order_numbers(_digits())) > COMPUTED_NUMBERS
        for parts in (1, 8):  # lifted whole or as eight tensors of eight
            with cw.watched() as watch:
                for k in range(parts):
                    torch.tensor(_digits()[k * 64 // parts:(k + 1) * 64 // parts])
            assert watch.numbers == set() and len(watch.computed_numbers()) > COMPUTED_NUMBERS
        # series coefficients picked as digits (1/k: SERIES) are no escape
        codes = [min(899, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 1800)) for k in range(32)]
        picks = [1.0 / (3 + d) for c in codes for d in (c // 30, c % 30)]
        assert hn.computed(picks) == set() and len(hn.order_numbers(picks)) > COMPUTED_NUMBERS
    finally:
        hn.set_sources()


def test_coefficient_lists_fills_and_patterns_cost_nothing_in_order():
    assert hn.order_numbers([1.0 / math.factorial(k) for k in range(2, 14)]) == set()
    assert hn.order_numbers([0.5] * 64) == set()
    assert hn.order_numbers([1.0, -1.0] * 32) == set()
    assert hn.order_numbers(list(ALPHABET)) == set()
    # exp's, exp2's, atanh's and log1p's series lifted together share 1, 1/2, 1/3
    series = [1.0 / math.factorial(i) for i in range(12)]
    series += [(-1) ** k * math.log(2.0) ** k / math.factorial(k) for k in range(8)]
    series += [2.0 / (2 * k + 1) for k in range(10)] + [(-1) ** k / k for k in range(1, 17)]
    assert hn.order_numbers(series) == set()
    hn.set_sources("C = (0.044715, 0.7978845608)")
    try:
        with cw.watched() as watch:  # the same coefficients per layer, twelve layers
            for _ in range(12):
                torch.tensor([0.044715, 0.7978845608, 0.5, 1.0])
        assert watch.computed_numbers() == set()
    finally:
        hn.set_sources()


def test_a_typed_digit_float_per_launch_is_data():
    data, kernel, table = DataInts(), _Kernel(_put), torch.empty(256)
    for k in range(256):  # 256 8-bit sigmoid codes as two base-16 digit floats each
        code = round(255.0 / (1.0 + math.exp(8.0 - k * 16.0 / 255)))
        for p in range(2):
            data.add(kernel, (table, k, p, float((code >> (4 - 4 * p)) & 15)), {})
    assert data.data() > 64


def test_a_constant_or_per_layer_float_per_launch_is_not():
    data, kernel, x = DataInts(), _Kernel(_norm), torch.empty(8, 64)
    for _ in range(2):
        for eps in (1e-5, 1e-6, 1e-5, 1e-6, 1e-5, 1e-6):  # layers alternating two eps
            data.add(kernel, (x, x, eps, 64), {})
    assert data.data() <= 4


def test_which_of_two_argument_identical_kernels_runs_is_data():
    data, table, cursor = DataInts(), torch.empty(32), torch.zeros(1, dtype=torch.int32)
    bit0, bit1, step = _Kernel(_bit0), _Kernel(_bit1), _Kernel(_next)
    for k in range(32):
        code = min(1023, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 2048))
        for p in range(9, -1, -1):
            data.add(bit1 if (code >> p) & 1 else bit0, (table, cursor), {})
        data.add(step, (table, cursor), {})
    assert data.data() > 64


def test_a_per_layer_sequence_of_kernels_is_cheap():
    data, x = DataInts(), torch.empty(8, 64)
    kernels = [_Kernel(f) for f in (_bit0, _bit1, _next)]
    for _ in range(2):  # two forwards of twelve layers, three kernels each
        for _ in range(12):
            for kernel in kernels:
                data.add(kernel, (x, x), {})
    assert data.data() <= 3


def test_a_kernel_body_table_of_int_literals_counts_past_the_typed_cap(tmp_path):
    """kernel_constants.TYPED_NUMBERS (red team s59c): 256 sigmoid values typed as 15-bit
    fixed-point int literals of a kernel body's tuple, scaled in the kernel, were under no cap
    (a body's float literals only were read): ok under strict at 1.0002. A lone int literal
    (a block size, a mask) stays free."""
    import importlib.util

    from evaluator.kernel_constants import TYPED_NUMBERS, kernel_constants
    from evaluator.launch_args import launch_data

    codes = ", ".join(str(round(32768 / (1.0 + math.exp(-k * 8.0 / 255)))) for k in range(256))
    path = tmp_path / "s59c_int_body.py"
    path.write_text(f"""import triton
import triton.language as tl


@triton.jit
def small(x_ptr):
    tl.store(x_ptr, (tl.load(x_ptr) & 0x7FFF) >> 3)


@triton.jit
def kernel(x_ptr, W: tl.constexpr):
    codes = ({codes})
    for j in tl.static_range(W):
        tl.store(x_ptr + j, codes[j] * (1.0 / 32768.0))
""")
    spec = importlib.util.spec_from_file_location("s59c_int_body", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert kernel_constants(module.small) == ()
    data = launch_data((kernel_constants(module.kernel),))
    assert sum(v[2] if type(v) is tuple else 1 for v in data) > TYPED_NUMBERS  # its 256 ints count


def test_typed_digits_given_fills_at_construction_cost_their_order():
    """Red team s59c: the same digits written by one torch.full per digit and joined by
    torch.cat in __init__ (a fill takes its value as an op's scalar, not as lifted data) were
    ok under strict at 1.0002; a norm's per-layer ones and an eps fill stay free."""
    hn.set_sources(repr(ALPHABET) + " 1e-5")
    try:
        with cw.watched() as watch:
            torch.cat([torch.full((1,), d) for d in _digits()])
        assert watch.numbers == set() and len(watch.computed_numbers()) > COMPUTED_NUMBERS
        with cw.watched() as watch:
            for _ in range(12):
                torch.ones(8).fill_(1.0), torch.zeros(8), torch.full((8,), 1e-5)
        assert watch.computed_numbers() == set()
    finally:
        hn.set_sources()
