"""Float division and remainder under the CPU interpreter as sm_90 code computes them (red team
rt76, read off the PTX for GPUTarget("cuda", 90, 32)): Triton's `/` of float32 is div.full.f32
(2 ulp, through evaluator.interpreter_asm's keyed error), tl.div_rn is div.rn; `%` of floats is
LLVM's NVPTX expansion of frem, fma.rn(-trunc(div.rn(x, y)), y, x), x where y is infinite.
Numpy's exact quotient and fmod made `x / y == div_rn(x, y)` and `0 <= x % y < y` hold at every
point on the CPU only.

TRITON_INTERPRET=1 must be set before triton is first imported, so this module runs itself once
more in a child pytest with the variable set, under the candidate child's hooks.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks
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
def divide_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x / y)
    tl.store(out_ptr + BLOCK + offs, libdevice.div_rn(x, y))
    tl.store(out_ptr + 2 * BLOCK + offs, x / y)  # the same quotient again: the same bits
    tl.store(out_ptr + 3 * BLOCK + offs, x % y)


def _operands(n: int = 4096):
    i = torch.arange(n, dtype=torch.float32)
    return (i % 977) * 1.37 + 0.11, (i % 313) * 0.73 + 0.29


@needs_interpreter
def test_a_float32_quotient_is_div_full_within_two_ulp():
    x, y = _operands()
    out = torch.empty(4 * 4096)
    divide_kernel[(1,)](x, y, out, BLOCK=4096)
    full, rn, again = out[:4096].numpy(), out[4096:8192].numpy(), out[8192:12288].numpy()
    exact = x.numpy().astype(np.float64) / y.numpy().astype(np.float64)
    assert np.array_equal(rn, exact.astype(np.float32))
    assert np.count_nonzero(full != rn) > 64  # numpy's quotient was div.rn's everywhere
    ulp = np.spacing(np.abs(rn)).astype(np.float64)
    ratio = np.abs(full.astype(np.float64) - exact) / ulp
    assert ratio.max() <= 2, (ratio.max(), full[ratio.argmax()], exact[ratio.argmax()])
    np.testing.assert_array_equal(full, again)  # a fixed function of the operands' bits


@needs_interpreter
def test_an_exact_quotient_stays_exact():
    x = torch.tensor([6.0, 1.0, -12.0, 0.0, 7.0, 1e30, 9.0, 1.5] * 16)
    y = torch.tensor([3.0, 4.0, 0.5, 5.0, 7.0, 2.0, -3.0, 0.75] * 16)
    out = torch.empty(4 * 128)
    divide_kernel[(1,)](x, y, out, BLOCK=128)
    np.testing.assert_array_equal(out[:128].numpy(), (x / y).numpy())


@needs_interpreter
def test_a_float_remainder_is_the_compiled_expansion():
    x, y = _operands()
    x = x * 1.0e7
    y = torch.cat([y[:-2], torch.tensor([float("inf"), float("-inf")])])
    out = torch.empty(4 * 4096)
    divide_kernel[(1,)](x, y, out, BLOCK=4096)
    got = out[3 * 4096:].numpy()
    xn, yn = x.numpy().astype(np.float64), y.numpy().astype(np.float64)
    q = np.trunc((xn / yn).astype(np.float32).astype(np.float64))
    want = (xn - q * yn).astype(np.float32)  # one rounding of nearly exact float64: fma.rn's within an ulp
    finite = ~np.isinf(yn)
    assert np.array_equal(got[~finite], x.numpy()[~finite])
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-6, atol=1e-3)
    assert np.count_nonzero((got[finite] < 0) | (got[finite] >= y.numpy()[finite])) > 64  # fmod: none
