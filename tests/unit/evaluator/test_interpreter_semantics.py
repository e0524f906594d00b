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
