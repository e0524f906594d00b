"""What the CPU interpreter must not decide differently from a GPU (session 31): a tl.range
loop variable is the GPU's scalar tensor (evaluator.interpreter_loops).

TRITON_INTERPRET=1 must be set before triton is first imported, so, as test_interpreter_launch
does, this module runs itself once more in a child pytest with the variable set.
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


@pytest.fixture(autouse=True)
def _guard():
    if INTERPRETED:
        from evaluator import interpreter_guard
        assert interpreter_guard.install()  # as in every CPU child (the zygote installs it)


# ---------------------------------------------------------------------- the loop variable
@triton.jit
def loop_types_kernel(out_ptr, n, big, BLOCK: tl.constexpr):
    for k in tl.range(0, n, num_stages=2):
        tl.static_assert(k.dtype == tl.int32)
        start = (k * BLOCK).to(tl.int64)  # arithmetic with ints keeps the loop variable's type
        tl.static_assert(start.dtype == tl.int64)
        tl.store(out_ptr + start, k.to(tl.int64).to(tl.float32) + 1.0)
    for j in range(2):  # plain range in a kernel is tl.range on the GPU
        tl.static_assert(j.dtype == tl.int32)
        copy = j  # an assignment (to_tensor in the interpreter's rewrite) keeps the dtype
        tl.store(out_ptr + 1 + j, (copy + 10).to(tl.float32))
    for i in tl.range(big, big + 1):  # an int64 bound: an int64 induction variable
        tl.static_assert(i.dtype == tl.int64)
        wide = i
        tl.static_assert(wide.dtype == tl.int64)
        tl.store(out_ptr + 3, (i - big).to(tl.float32) + 20.0)
    for s in tl.static_range(1):  # a constexpr on the GPU: a plain int
        tl.static_assert(not isinstance(s, tl.tensor) and not hasattr(s, "to"))


@needs_interpreter
def test_a_range_loop_variable_is_the_gpus_scalar_tensor():
    """`k.to(tl.int64)` of a tl.range variable raised AttributeError on the CPU only (an honest
    cumsum, session 31): the interpreter's range yields ints. Now tl.range and range yield ints
    with the scalar tensor's dtype and methods; tl.static_range's stay plain ints."""
    out = torch.zeros(8)
    loop_types_kernel[(1,)](out, 2, 2 ** 40, BLOCK=4)
    assert out.tolist() == [1.0, 10.0, 11.0, 20.0, 2.0, 0.0, 0.0, 0.0]


@needs_interpreter
def test_loop_index_arithmetic_keeps_its_type():
    import triton.language as tl

    from evaluator.interpreter_loops import LoopIndex, device_range

    ks = list(device_range(0, 3))
    k = ks[2]
    assert isinstance(k, LoopIndex) and k == 2 and k.dtype == tl.int32
    for v in (k * 4, 4 * k, k + 1, 1 - k, -k, k // 2, k % 2, k << 1, k * tl.constexpr(3)):
        assert isinstance(v, LoopIndex) and v.dtype == tl.int32
    assert type(k * 1.5) is float and type(k < 3) is bool
    assert list(reversed(device_range(3))) == [2, 1, 0] and len(device_range(0, 10, 4)) == 3
    assert device_range(0, 2 ** 33)[0].dtype == tl.int64
