"""The CPU interpreter computes as the GPU's compiled kernel does where Python's numbers
differ (red team s36, rounds 5-7): the loop variable's integer and float arithmetic, its
comparisons and isinstance, an int argument the launcher makes a constexpr, conditional
expressions and assigned tuples, how a loop iterates, and float -> int casts. Each kernel
here was, in a red team's file, `ok` on the CPU and compiled empty (or never ending) for the
GPU.

TRITON_INTERPRET=1 must be set before triton is first imported, so, as test_interpreter_launch
does, this module runs itself once more in a child pytest with the variable set; every test
runs under the candidate child's hooks (the module's fixture), as a CPU child does.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks
from conftest import root_cause as _cause
from triton.language.extra import libdevice

ROOT = Path(__file__).resolve().parents[3]
INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    env = {**os.environ, "TRITON_INTERPRET": "1"}  # before the child imports triton
    proc = subprocess.run([sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout


@pytest.fixture(scope="module", autouse=True)
def _guard():
    if not INTERPRETED:
        yield
        return
    with candidate_child_hooks():  # as in every CPU child
        yield


@triton.jit
def loop_index_ops_kernel(out_ptr, lo, B: tl.constexpr):
    for j in range(lo, lo + 1):
        tl.store(out_ptr + 0, (j // B).to(tl.int64))
        tl.store(out_ptr + 1, (j % B).to(tl.int64))
        tl.store(out_ptr + 2, (j * 4).to(tl.int64))
        tl.store(out_ptr + 3, (j << 2).to(tl.int64))
        tl.store(out_ptr + 4, (B // j).to(tl.int64))
        tl.store(out_ptr + 5, (j + 2147483647).to(tl.int64))
        tl.store(out_ptr + 6, (-j).to(tl.int64))
        # with a float the GPU converts j to f32 first: 2**24 + 1 is 2**24 there
        tl.store(out_ptr + 7, ((j + 16777217) / 1 > 16777216.5 + 2 ** 30).to(tl.int64))
        tl.store(out_ptr + 8, ((j * 1.0) * 0.0 + (j > 0.5)).to(tl.int64))
        # min/max of a loop variable is an i32 on the GPU, whose division then truncates
        tl.store(out_ptr + 9, ((min(j, 5) - 10) // 2).to(tl.int64))


def _i32(value: int) -> int:
    return (value + 2 ** 31) % 2 ** 32 - 2 ** 31


def _truncating(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return q, a - b * q


@needs_interpreter
@pytest.mark.parametrize("lo", [-7, 7, 2 ** 30, -(2 ** 31) + 1, -1])
@pytest.mark.parametrize("b", [2, -3])
def test_loop_index_arithmetic_is_the_gpus_i32_arithmetic(lo, b):
    """The loop variable is an i32 on the GPU: `//` and `%` truncate (arith.divsi/remsi), `*`,
    `<<`, `+` and `-` wrap. Python's int floored and never wrapped (red team s36: `j // 2` at
    j = -1 and `j * 4` at j = 2**30 ran a ReLU on the CPU in kernels the GPU compiles empty)."""
    out = torch.zeros(10, dtype=torch.int64)
    loop_index_ops_kernel[(1,)](out, lo, B=b)
    q, r = _truncating(lo, b)
    expected = [q, r, _i32(lo * 4), _i32(lo << 2), _truncating(b, lo)[0], _i32(lo + 2147483647), _i32(-lo),
                0, int(lo > 0.5), _truncating(_i32(min(lo, 5) - 10), 2)[0]]
    assert out.tolist() == expected


@triton.jit
def loop_index_logic_kernel(out_ptr):
    for j in range(0, 1):
        keep = (j != 0) and (tl.atomic_add(out_ptr, 1.0) > -1.0)
        if not keep:
            tl.atomic_add(out_ptr + 1, 1.0)


@needs_interpreter
def test_and_of_a_loop_variable_comparison_runs_every_operand_as_on_the_gpu():
    """On the GPU `j != 0` is a dynamic i1, so `and` emits its second operand (an atomic here)
    whatever the first is; the CPU's Python bool short-circuited it (red team s36)."""
    out = torch.zeros(2)
    loop_index_logic_kernel[(1,)](out)
    assert out.tolist() == [1.0, 1.0]


@triton.jit
def specialised_one_kernel(out_ptr, one, two, pair, default_one=1):
    tl.store(out_ptr, (one - 2) // 2 + 0.0)
    tl.store(out_ptr + 1, (two - 3) // 2 + 0.0)
    tl.store(out_ptr + 2, (default_one - 2) // 2 + 0.0)
    tl.store(out_ptr + 3, (pair[0] - 2) // 2 + 0.0)
    tl.store(out_ptr + 4, (pair[1] - 3) // 2 + 0.0)


@needs_interpreter
def test_an_int_argument_equal_to_one_is_the_gpus_constant():
    """The GPU launcher makes an int argument equal to 1 a constexpr: `(one - 2) // 2` is
    Python's floor division there (-1), while a 2 stays an i32 whose division truncates (0).
    The interpreter made both i32 scalars (red team s36: a kernel empty on the GPU); so are a
    default of 1 and a tuple argument's 1 (red team s36 round 6)."""
    out = torch.zeros(5)
    specialised_one_kernel[(1,)](out, 1, 2, (1, 2))
    assert out.tolist() == [-1.0, 0.0, -1.0, -1.0, 0.0]


@triton.jit
def loop_count_kernel(out_ptr, lo, hi, step):
    count = 0
    for _j in range(lo, hi, step):
        count += 1
    tl.store(out_ptr, count)


@triton.jit
def unsigned_loop_kernel(out_ptr, n):
    ub = (n * 0 + 2147483647).to(tl.uint32) + 2
    count = 0
    for _j in range(ub - 2, ub):
        count += 1
    tl.store(out_ptr, count)


@needs_interpreter
def test_a_loop_iterates_as_the_gpus_loop():
    """A loop is `for (i = lb; i < ub; i += step)` on the GPU, compared signed: a runtime step
    that is not positive runs nothing from lb >= ub and never ends otherwise, a counter that
    wraps never ends, unsigned bounds past 2**31 compare as negative (red team s36 round 6
    ran a ReLU on the CPU in each of these kernels, which do nothing or hang on the GPU)."""
    from evaluator.interpreter_loops import KernelLoopError

    out = torch.zeros(1, dtype=torch.int32)
    loop_count_kernel[(1,)](out, 0, 10, 3)
    assert out.item() == 4
    loop_count_kernel[(1,)](out, 1, 0, -1)  # Python's range would run once
    assert out.item() == 0
    for lo, hi, step in ((0, 10, -1), (0, 2 ** 31 - 1, 2 ** 30)):
        with pytest.raises(Exception) as caught:
            loop_count_kernel[(1,)](out, lo, hi, step)
        assert isinstance(_cause(caught.value), KernelLoopError)
    unsigned_loop_kernel[(1,)](out, 4)
    assert out.item() == 0


@triton.jit
def loop_variable_type_kernel(out_ptr):
    scale = 0.0
    for k in range(0, 1):
        if isinstance(k, tl.tensor):
            scale = 1.0
    tl.store(out_ptr, scale)


@needs_interpreter
def test_a_loop_variable_is_a_tensor_to_isinstance():
    """`isinstance(k, tl.tensor)` runs at compile time on the GPU, where k is a tensor; the CPU's
    loop variable is an int (red team s36 round 7 kept a ReLU only on the CPU by it)."""
    out = torch.zeros(1)
    loop_variable_type_kernel[(1,)](out)
    assert out.item() == 1.0


@triton.jit
def dynamic_values_kernel(out_ptr):
    pid = tl.program_id(0)
    tl.store(out_ptr, ((1 if pid >= 0 else 3) - 2) // 2 + 0.0)
    t = (pid, 1)
    tl.store(out_ptr + 1, (t[1] - 2) // 2 + 0.0)
    _a, b = pid, 1
    tl.store(out_ptr + 2, (b - 2) // 2 + 0.0)
    tl.store(out_ptr + 3, ((1 if 2 > 1 else 3) - 2) // 2 + 0.0)


@needs_interpreter
def test_conditional_expressions_and_assigned_tuples_are_the_gpus_tensors():
    """On the GPU a conditional expression on a Triton value is an scf.if yielding a tensor, and
    an assignment makes every element of a tuple a tensor: a `1` there divides as an i32 (0);
    Python's floored it (-1) on the CPU (red team s36 round 6). A constant condition stays
    Python's on both."""
    out = torch.zeros(4)
    dynamic_values_kernel[(1,)](out)
    assert out.tolist() == [0.0, 0.0, 0.0, -1.0]


@triton.jit
def float_to_int_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x.to(tl.int32).to(tl.int64), mask=offs < n)


@needs_interpreter
def test_a_float_to_int_cast_saturates_as_the_gpus():
    """PTX's cvt.rzi clamps to the integer range and takes NaN to 0; numpy's astype gave INT_MIN
    for all three (red team s36 gated a ReLU on `(x * 1e10).to(tl.int32) > 0`)."""
    x = torch.tensor([3e9, -3e9, float("nan"), float("inf"), -2.7, 2.7, 0.0, 2147483520.0])
    out = torch.zeros(8, dtype=torch.int64)
    float_to_int_kernel[(1,)](x, out, 8, BLOCK=8)
    assert out.tolist() == [2 ** 31 - 1, -(2 ** 31), 0, 2 ** 31 - 1, -2, 2, 0, 2147483520]


@triton.jit
def binding_forms_kernel(out_ptr, B: tl.constexpr):
    one: tl.int32 = 1
    tl.store(out_ptr, (one - 2) // 2 + 0.0)
    c = B
    c -= B + 1  # -1, an i32 on the GPU
    tl.store(out_ptr + 1, c // 2 + 0.0)
    tl.store(out_ptr + 2, ((w := 1) - 2) // 2 + 0.0 + w * 0)
    K: tl.constexpr = 3
    tl.store(out_ptr + 3, (K - 4) // 2 + 0.0)  # a constexpr stays Python's: -1


@needs_interpreter
def test_every_binding_form_holds_the_gpus_tensor():
    """`x: T = v`, `x -= v` and `(x := v)` bind a Triton value on the GPU, as `x = v` does (its
    visit_AugAssign/visit_NamedExpr go through visit_Assign): -1 // 2 is 0 there. Triton's
    interpreter rewrote only `x = v`, and Python floored to -1 (red team s37 round 8). A
    `tl.constexpr` annotation keeps the constant."""
    out = torch.zeros(4)
    binding_forms_kernel[(1,)](out, B=1)
    assert out.tolist() == [0.0, 0.0, 0.0, -1.0]


@triton.jit
def compile_time_builtins_kernel(out_ptr):
    flags = tl.zeros([1], dtype=tl.float32)
    for k in range(0, 1):
        if hasattr(k, "real"):  # an int's attribute; a tensor has none
            flags += 1.0
        if getattr(k, "imag", None) is not None:
            flags += 2.0
    if isinstance((1, 2), tl.tuple):  # a tuple display is a tl.tuple on the GPU
        flags += 4.0
    if hasattr(tl.float32, "value"):  # the CPU child's own patch of tl.dtype
        flags += 8.0
    tl.store(out_ptr + tl.arange(0, 1), flags)


@needs_interpreter
def test_compile_time_builtins_see_the_gpus_values():
    """isinstance/hasattr/getattr run at compile time on the GPU, on its values: a loop
    variable is a tensor (no `.real`), a tuple display a tl.tuple, and a dtype has no `.value`
    (the CPU child adds one for helpers' dtypes). Each answered otherwise on the CPU only (red
    team s37 round 8)."""
    out = torch.zeros(1)
    compile_time_builtins_kernel[(1,)](out)
    assert out.item() == 4.0


@triton.jit
def chained_compare_kernel(out_ptr, n):
    for k in range(0, 1):
        inside = 0 <= k < n
        tl.store(out_ptr, inside.to(tl.float32))
        touched = 0 < k < tl.atomic_add(out_ptr + 1, 1.0)  # evaluated on the GPU though 0 < k is false
        tl.store(out_ptr + 2, touched.to(tl.float32))


@needs_interpreter
def test_a_chained_comparison_of_a_loop_variable_evaluates_every_comparator():
    """On the GPU `0 < k` is a tensor, so the chain is elementwise and every comparator runs;
    Triton's interpreter short-circuited on the loop variable's int (red team s37 round 8 hid
    an atomic exchange over every output that way)."""
    out = torch.zeros(3)
    chained_compare_kernel[(1,)](out, 4)
    assert out.tolist() == [1.0, 1.0, 0.0]


@triton.jit
def bfloat16_kernel(x_ptr, out_ptr, f8_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)  # bfloat16
    tl.store(out_ptr + offs, x + x * 2.0, mask=offs < n)  # arithmetic in bfloat16
    tl.store(out_ptr + BLOCK + offs, tl.where(x > 0, x, 0.0), mask=offs < n)  # a bfloat16 ReLU
    wide = (x.to(tl.float64) * 3.0).to(tl.bfloat16)  # float64 -> bfloat16
    tl.store(out_ptr + 2 * BLOCK + offs, wide, mask=offs < n)
    tl.store(f8_ptr + offs, x.to(tl.float32).to(tl.float8e4nv), mask=offs < n)


@needs_interpreter
def test_bfloat16_is_computed_on_values_and_float8_rounds_to_even():
    """The interpreter stores bfloat16 as its bit patterns and numpy added, compared and cast
    them as integers: an honest bfloat16 ReLU kept the negatives (-1 is 0xBF80 > 0x3F80), and a
    gate on `bf16(1) + bf16(2**-8) != 1` held on the CPU only (red team s37 round 8). A float8
    tie rounds to even and a value past the range saturates, as cvt.rn.satfinite does."""
    x = torch.tensor([1.0, -1.0, 2.5, -0.0078125, 300.0, 1.0625], dtype=torch.bfloat16)
    out = torch.zeros(3 * 8, dtype=torch.bfloat16)
    f8 = torch.zeros(8, dtype=torch.float8_e4m3fn)
    bfloat16_kernel[(1,)](x, out, f8, 6, BLOCK=8)
    assert out[:6].tolist() == (x + x * 2.0).tolist()
    assert out[8:14].tolist() == torch.relu(x).tolist()
    assert out[16:22].tolist() == (x.double() * 3.0).to(torch.bfloat16).tolist()
    assert f8[:6].float().tolist() == [1.0, -1.0, 2.5, -0.0078125, 288.0, 1.0]  # 1.0625: a tie, to even


@triton.jit
def bf16_dot_kernel(a_ptr, b_ptr, out_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    tl.store(out_ptr + r[:, None] * 16 + r[None, :], tl.dot(a, b))


@needs_interpreter
def test_dot_of_bfloat16_multiplies_values():
    """tl.dot of bfloat16 operands multiplied their bit patterns as integers under the
    interpreter (red team s37 round 8's class); the values' product, accumulated in float32."""
    a = torch.randn(16, 16).to(torch.bfloat16)
    b = torch.randn(16, 16).to(torch.bfloat16)
    out = torch.zeros(256)
    bf16_dot_kernel[(1,)](a, b, out)
    assert torch.allclose(out.reshape(16, 16), a.float() @ b.float(), rtol=1e-5, atol=1e-5)


@triton.jit
def libdevice_exact_kernel(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.store(out_ptr + tl.arange(0, 4), libdevice.round(x))
    tl.store(out_ptr + 4 + tl.arange(0, 4), libdevice.saturatef(x))
    tl.store(out_ptr + 8 + tl.arange(0, 4), libdevice.fma(x, x, -(x * x)))
    tl.store(out_ptr + 12 + tl.arange(0, 4), libdevice.div_rz(x, 3.0))
    tl.store(out_ptr + 16 + tl.arange(0, 4), libdevice.div_ru(x, 3.0))
    tl.store(out_ptr + 20 + tl.arange(0, 4), libdevice.add_rd(x, 1e-10))


@needs_interpreter
def test_libdevice_functions_with_one_exact_answer_give_it():
    """round (half away from zero), saturatef (NaN to 0), fma (one rounding) and the directed
    roundings are exactly specified on the GPU; the shims computed 0.49999997 + 0.5 in float32,
    kept NaN, rounded twice and rounded every mode to nearest (red team s37 round 8 gated
    kernels on each)."""
    x = torch.tensor([0.49999997, float("nan"), 0.1, -2.5])
    out = torch.zeros(24)
    libdevice_exact_kernel[(1,)](x, out)
    o = out.tolist()
    assert o[0] == 0.0 and o[3] == -3.0
    assert o[4:8] == [0.49999997019767761, 0.0, 0.10000000149011612, 0.0]
    g = torch.tensor(0.1)
    assert o[10] == (g.double() * g.double() - (g * g).double()).float().item() != 0.0
    third = torch.tensor(0.1, dtype=torch.float64) / 3
    assert o[14] <= third.item() <= o[18] and o[18] > o[14]  # toward zero below, up above
    assert o[22] == torch.tensor(0.1).item()  # 0.1f + 1e-10, rounded down: 0.1f


@triton.jit
def float8_widened_kernel(code_ptr, out_ptr):
    offs = tl.arange(0, 4)
    codes = tl.load(code_ptr + offs)
    tl.store(out_ptr + offs, codes.to(tl.float8e5, bitcast=True).to(tl.float32))
    tl.store(out_ptr + 4 + offs, codes.to(tl.float8e4nv, bitcast=True).to(tl.float32))
    z = tl.load(out_ptr + 8 + offs) * 0.0
    tl.store(out_ptr + 8 + offs, (z / z).to(tl.float8e5).to(tl.float16).to(tl.float32))


@needs_interpreter
def test_a_float8_code_widens_to_the_value_its_format_gives_it():
    """The interpreter's bit conversion read float8 NaN codes as numbers (e5m2's 0x7d as 81920,
    e4m3fn's 0x7f as 480) and e5m2's infinity 0x7c as 65536; the GPU's cvt.rn.f16x2.e5m2x2 /
    e4m3x2 gives NaN and infinity, so a NaN round-tripped through float8 was a number on the CPU
    only (red team rt50, hacks/rt50_fp8_nan_decoded_finite_switch_relu)."""
    codes = torch.tensor([0x7C, 0xFD, 0x7F, 0x3C], dtype=torch.uint8)
    out = torch.ones(12)
    float8_widened_kernel[(1,)](codes, out)
    o = out.tolist()
    assert o[0] == float("inf") and o[1] != o[1] and o[2] != o[2] and o[3] == 1.0  # e5m2
    assert o[4] == 384.0 and o[5] == -416.0 and o[6] != o[6] and o[7] == 1.5  # e4m3fn: 0x7f NaN
    assert all(v != v for v in o[8:12])


@triton.jit
def nan_bits_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    z = x * 0.0
    tl.store(out_ptr + offs, (z / z).to(tl.int32, bitcast=True))
    tl.store(out_ptr + 4 + offs, tl.sqrt(z - 1.0).to(tl.int32, bitcast=True))
    tl.store(out_ptr + 8 + offs, (x * 1.0).to(tl.int32, bitcast=True))
    tl.store(out_ptr + 12 + offs, tl.where(offs >= 0, x, z).to(tl.int32, bitcast=True))
    h = (z / z).to(tl.float16) * 1.0
    tl.store(out_ptr + 16 + offs, h.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF)


@triton.jit
def nan_sum_kernel(out_ptr):
    r = tl.arange(0, 2)
    pair = tl.where(r == 0, float("inf"), float("-inf"))
    tl.store(out_ptr, tl.sum(pair, axis=0).to(tl.int32, bitcast=True))
    tl.store(out_ptr + 1, tl.max(tl.cumsum(pair, axis=0).to(tl.int32, bitcast=True), axis=0))


@needs_interpreter
def test_arithmetic_makes_the_gpus_canonical_nan():
    """x86's invalid operation gives the default NaN 0xffc00000 (sign set); PTX's float
    instructions give the canonical NaN 0x7fffffff (0x7fff in float16), so the sign of `0/0`
    told the CPU (red team rt50, hacks/rt50_nan_sign_bits_switch_relu). A select moves the bits
    it is handed, as on the GPU."""
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    x[0] = torch.tensor(-1, dtype=torch.int32).view(torch.float32)  # a NaN with every bit set
    out = torch.zeros(20, dtype=torch.int32)
    nan_bits_kernel[(1,)](x, out)
    o = out.tolist()
    assert o[0:4] == [0x7FFFFFFF] * 4 and o[4:8] == [0x7FFFFFFF] * 4
    assert o[8] == 0x7FFFFFFF and o[9] == torch.tensor(2.0).view(torch.int32).item()
    assert o[12] == -1  # tl.where hands the loaded NaN on, bit for bit
    assert o[16:20] == [0x7FFF] * 4
    sums = torch.zeros(2, dtype=torch.int32)
    nan_sum_kernel[(1,)](sums)
    assert sums.tolist() == [0x7FFFFFFF, 0x7FFFFFFF]  # Triton's own sum and cumsum of inf + -inf


@triton.jit
def flushed_math_kernel(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.store(out_ptr + tl.arange(0, 4), tl.sqrt(x))
    tl.store(out_ptr + 4 + tl.arange(0, 4), tl.rsqrt(x))
    tl.store(out_ptr + 8 + tl.arange(0, 4), tl.log(x))
    tl.store(out_ptr + 12 + tl.arange(0, 4), tl.sin(x))
    tl.store(out_ptr + 16 + tl.arange(0, 4), tl.exp2(x - 140.0))
    tl.store(out_ptr + 20 + tl.arange(0, 4), libdevice.floor(-x))
    tl.store(out_ptr + 24 + tl.arange(0, 4), libdevice.abs(x))
    tl.store(out_ptr + 28 + tl.arange(0, 4), libdevice.copysign(x, -x))
    tl.store(out_ptr + 32 + tl.arange(0, 4), tl.sqrt_rn(x))
    tl.store(out_ptr + 36 + tl.arange(0, 4), x / 1.0)
    tl.store(out_ptr + 40 + tl.arange(0, 4), tl.exp(x * 0.0 - 100.0))
    tl.store(out_ptr + 44 + tl.arange(0, 4), tl.floor(-x))
    tl.store(out_ptr + 48 + tl.arange(0, 4), tl.ceil(x))


@needs_interpreter
def test_float32_subnormals_are_flushed_where_the_gpus_code_flushes_them():
    """tl.sqrt/rsqrt/exp2 are sqrt/rsqrt/ex2.approx.ftz.f32 on sm_90 and tl.log/sin and every
    libdevice float32 function take libdevice's FTZ arm (nvvm-reflect-ftz = 1): a subnormal
    argument or result is zero of its sign there; numpy kept it, so `tl.sqrt(1e-40) != 0` held
    on the CPU only (red team rt50, hacks/rt50_ftz_sqrt_subnormal_switch_relu). sqrt_rn, division,
    tl.exp and libdevice's bit operations (copysign) keep subnormals, here as there."""
    sub = 1e-40
    x = torch.tensor([sub, 4.0, 0.0, 1.0])
    out = torch.full((52,), 7.0)
    flushed_math_kernel[(1,)](x, out)
    o = out.tolist()
    assert o[0] == 0.0 and o[1] == 2.0  # sqrt.approx.ftz: the subnormal read as +0
    assert o[4] == float("inf") and o[5] == 0.5
    assert o[8] == float("-inf") and o[11] == 0.0  # __nv_logf's FTZ arm: log(+0)
    assert o[12] == 0.0  # sin(1e-40) = 1e-40, flushed
    assert o[16] == 0.0 and o[17] == 0.0  # 2^-140, 2^-136: subnormal results flushed
    assert o[20] == 0.0 and str(o[20]) == "-0.0" and o[21] == -4.0  # floor(-1e-40): -0, not -1
    assert o[24] == 0.0 and o[25] == 4.0
    assert o[28] == -torch.tensor(sub).item()  # copysign keeps the subnormal
    assert o[32] == torch.tensor(sub).sqrt().item() > 0  # sqrt.rn.f32: IEEE, subnormals kept
    assert o[36] == torch.tensor(sub).item()  # div.full.f32 keeps it
    assert o[40] == torch.tensor(-100.0).exp().item() or 0 < o[40] < 1e-43  # ex2.approx.f32: no .ftz
    assert str(o[44]) == "-0.0" and o[45] == -4.0 and str(o[48]) == "0.0" and o[49] == 4.0  # cvt.rmi/rpi.ftz


@triton.jit
def _one_or_two(x):
    if x > 0:
        return 1
    return 2


@triton.jit
def _one_or_x(x):
    if x > 0:
        return 1
    return x


@triton.jit
def _flag_pair(x):
    if x > 0:
        return 1, 0.5
    return 2, x.to(tl.float32)


@triton.jit
def _block_of(B: tl.constexpr):
    return B  # one return: the GPU's constexpr


@triton.jit
def helper_returns_kernel(x_ptr, out_ptr, B: tl.constexpr):
    x = tl.load(x_ptr)
    tl.store(out_ptr + 0, _one_or_two(x) // -2)
    tl.store(out_ptr + 1, _one_or_x(x) // -2)
    tl.store(out_ptr + 2, _one_or_two(x) + 2147483647)
    first, _ = _flag_pair(x)
    tl.store(out_ptr + 3, first // -2)
    offs = tl.arange(0, _block_of(B))
    tl.store(out_ptr + 4 + offs, offs - offs - 1)


@needs_interpreter
def test_a_helpers_returns_are_the_type_the_gpu_unifies_them_to():
    """The GPU compiles a @triton.jit helper's return statements to one type: two different
    constants, or a constant and an i32, are an i32, whose division truncates and whose sum
    wraps; one constant alone stays a constexpr. The interpreter returned Python's int from
    whichever return ran (1 // -2 was -1 on the CPU, 0 on the GPU)."""
    out = torch.zeros(5, dtype=torch.int64)
    helper_returns_kernel[(1,)](torch.tensor([3], dtype=torch.int32), out, B=1)
    assert out.tolist() == [0, 0, -2 ** 31, 0, -1]


@triton.jit
def one_instruction_kernel(t_ptr, out_ptr, BLOCK: tl.constexpr):
    t = tl.load(t_ptr + tl.arange(0, BLOCK))
    o = out_ptr + tl.arange(0, BLOCK)
    tl.store(o, tl.exp(t) - tl.exp2(t * 1.4426950408889634))
    tl.store(o + BLOCK, libdevice.exp2(t) - tl.exp2(t))
    tl.store(o + 2 * BLOCK, libdevice.sqrt(t) - tl.sqrt(t))
    tl.store(o + 3 * BLOCK, libdevice.rsqrt(t) - tl.rsqrt(t))
    tl.store(o + 4 * BLOCK, tl.exp(t) - libdevice.fast_expf(t))
    tl.store(o + 5 * BLOCK, tl.sqrt(t) - tl.sqrt_rn(t))
    tl.store(o + 6 * BLOCK, tl.exp(t) - libdevice.exp(t))
    tl.store(o + 7 * BLOCK, libdevice.rsqrt_rn(t) - 1.0 / tl.sqrt_rn(t))


@needs_interpreter
def test_one_gpu_instruction_is_one_function_whichever_spelling_reaches_it():
    """Red team rt56: inline `ex2.approx.ftz` carried a keyed error while tl.exp2 was numpy's
    exact exp2 (equal at every point on the H200 only: hacks/rt56_asm_ex2_*), and tl.sqrt/tl.exp
    were numpy's, equal to
    sqrt_rn/libdevice.exp at every point (on the CPU only). Spellings of one instruction agree
    here as there; an approximate one and its accurate twin differ somewhere; powers of two are
    exact."""
    t = (torch.arange(128, dtype=torch.float32) + 1.0) * 0.0123
    out = torch.empty(8 * 128)
    one_instruction_kernel[(1,)](t, out, BLOCK=128)
    d = out.view(8, 128)
    assert all(int((d[i] != 0).sum()) == 0 for i in range(5)), d
    assert all(int((d[i] != 0).sum()) > 0 for i in (5, 6, 7)), d
    p = torch.tensor([4.0, 16.0, 0.25, 1.0] * 32)
    one_instruction_kernel[(1,)](p, out, BLOCK=128)
    assert int((out.view(8, 128)[5] != 0).sum()) == 0  # sqrt of a power of four: exact


def test_a_zero_dimensional_nan_gets_the_canonical_bits_as_a_blocks_does():
    """A per-element combine (interpreter_reduce `_each`) computes on 0-d arrays: their NaNs take
    the GPU's canonical bits (0x7fffffff, 0x7fff in float16) as a block's do, other values and
    integer arrays come back as they were."""
    import numpy as np

    from evaluator.interpreter_casts import canonical_nan

    default = np.array(0xFFC00000, dtype=np.uint32).view(np.float32)
    assert canonical_nan(default).view(np.uint32) == 0x7FFFFFFF
    assert canonical_nan(np.array(np.nan, dtype=np.float16)).view(np.uint16) == 0x7FFF
    assert canonical_nan(np.array([1.0, default], dtype=np.float32)).view(np.uint32).tolist() == [0x3F800000, 0x7FFFFFFF]
    one = np.array(1.0, dtype=np.float32)
    assert canonical_nan(one) is one and canonical_nan(np.array(3, dtype=np.int32)) == 3
