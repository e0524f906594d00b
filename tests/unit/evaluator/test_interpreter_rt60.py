"""The CPU interpreter's libdevice functions, approximate instructions and unrolled reductions
as the GPU computes them (red team rt60, session 52): composed libdevice functions that were
their composition (rcbrt, normcdf, remainder), float64 rsqrt (rsqrt.approx.f64 on sm_90,
refused), pow of an integer exponent (__nv_powif's products), and the copies a
`tl.static_range` unrolls at one reduction site, each in its own compiled layout.

TRITON_INTERPRET=1 must be set before triton is first imported, so, as
test_interpreter_semantics does, this module runs itself once more in a child pytest with the
variable set; every test runs under the candidate child's hooks (the module's fixture).
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

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
def composed_twin_kernel(t_ptr, out_ptr, BLOCK: tl.constexpr):
    t = tl.load(t_ptr + tl.arange(0, BLOCK))
    o = out_ptr + tl.arange(0, BLOCK)
    tl.store(o, libdevice.rcbrt(t) - libdevice.div_rn(t * 0.0 + 1.0, libdevice.cbrt(t)))
    tl.store(o + BLOCK, libdevice.normcdf(t) - 0.5 * libdevice.erfc(-t / 1.4142135623730951))


@needs_interpreter
def test_a_composed_libdevice_function_is_not_its_composition():
    """Red team rt60: libdevice.rcbrt was numpy's 1 / cbrt in the argument's dtype and normcdf
    the expression 0.5 * erfc(-x / sqrt 2), the same roundings as those spellings in a kernel
    (equal at every point on the CPU only; __nv_rcbrtf and __nv_normcdff are algorithms of their
    own): they round once now, and differ somewhere, as on the GPU, in float32 and float64."""
    for dtype in (torch.float32, torch.float64):
        t = (torch.arange(256, dtype=dtype) * 7919 % 1000) * 0.00537 + 0.01
        out = torch.empty(2 * 256, dtype=dtype)
        composed_twin_kernel[(1,)](t, out, BLOCK=256)
        d = out.view(2, 256)
        assert all(int((d[i] != 0).sum()) > 0 for i in range(2)), (dtype, d)
        assert float(d.abs().max()) < 1e-5


@triton.jit
def rsqrt_kernel(t_ptr, out_ptr, BLOCK: tl.constexpr, LIBDEVICE: tl.constexpr):
    t = tl.load(t_ptr + tl.arange(0, BLOCK))
    if LIBDEVICE:
        tl.store(out_ptr + tl.arange(0, BLOCK), libdevice.rsqrt(t))
    else:
        tl.store(out_ptr + tl.arange(0, BLOCK), tl.rsqrt(t))


@needs_interpreter
def test_float64_rsqrt_is_refused():
    """Red team rt60: tl.rsqrt of float64 is rsqrt.approx.f64 alone on sm_90, and numpy's
    1 / sqrt made it equal to 1.0 / tl.sqrt(v) at every point on the CPU only; its GPU error is
    not known here, so it is refused, and libdevice.rsqrt of float64 (__nv_rsqrt: the same
    instruction) with it (float32's is rsqrt.approx.ftz.f32, modelled)."""
    t = torch.arange(1, 9, dtype=torch.float64)
    for libdevice_rsqrt in (False, True):  # __nv_rsqrt of float64 is the same one instruction
        with pytest.raises(Exception, match="rsqrt.approx.f64"):
            rsqrt_kernel[(1,)](t, torch.empty_like(t), BLOCK=8, LIBDEVICE=libdevice_rsqrt)
        f = t.float()
        out = torch.empty_like(f)
        rsqrt_kernel[(1,)](f, out, BLOCK=8, LIBDEVICE=libdevice_rsqrt)
        assert torch.allclose(out, f.rsqrt(), rtol=1e-6)


@triton.jit
def remainder_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, BLOCK))
    b = tl.load(b_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr + tl.arange(0, BLOCK), libdevice.remainder(a, b))


@needs_interpreter
def test_libdevice_remainder_is_exact():
    """Red team rt60: libdevice.remainder was `a - b * round(a / b)` in float32, wrong wherever the
    quotient is large and equal to that expression written with div_rn/rint/mul_rn/sub_rn (on
    the CPU only: __nv_remainderf is exact); now IEEE's exact remainder, C's special cases."""
    k = torch.arange(256)
    for dtype in (torch.float32, torch.float64):
        a = ((k * 7919 % 1000) * 1.37 + 100.0).to(dtype)
        b = ((k % 7) * 0.01 + 0.7).to(dtype)
        a[:3] = torch.tensor([float("inf"), 3.0, -4.0], dtype=dtype)
        b[:3] = torch.tensor([1.0, 0.0, 2.0], dtype=dtype)
        out = torch.empty_like(a)
        remainder_kernel[(1,)](a, b, out, BLOCK=256)
        want = [math.remainder(x, y) if math.isfinite(x) and y != 0 else math.nan
                for x, y in zip(a.double().tolist(), b.double().tolist())]
        assert torch.equal(out.double(), torch.tensor(want, dtype=torch.float64)) or \
            torch.allclose(out.double(), torch.tensor(want, dtype=torch.float64), rtol=0, atol=0, equal_nan=True)
        assert math.copysign(1.0, out[2].item()) == -1.0  # remainder(-4, 2) is -0, a's sign


@triton.jit
def powi_kernel(t_ptr, n_ptr, out_ptr, BLOCK: tl.constexpr):
    # each power beside its products, stored apart: `pow - t * (t * t)` in the kernel is one
    # fma.rn on sm_90 (FP fusion, evaluator.interpreter_fusion), the last product's rounding error
    t = tl.load(t_ptr + tl.arange(0, BLOCK))
    n = tl.load(n_ptr + tl.arange(0, BLOCK))
    o = out_ptr + tl.arange(0, BLOCK)
    tl.store(o, libdevice.pow(t, 3))
    tl.store(o + BLOCK, t * (t * t))
    tl.store(o + 2 * BLOCK, libdevice.pow(t, -3))
    tl.store(o + 3 * BLOCK, libdevice.div_rn(t * 0.0 + 1.0, t * (t * t)))  # `/` is div.full.f32
    tl.store(o + 4 * BLOCK, libdevice.pow(t, 5))
    tl.store(o + 5 * BLOCK, t * ((t * t) * (t * t)))
    tl.store(o + 6 * BLOCK, libdevice.pow(t, 0))
    tl.store(o + 7 * BLOCK, t * 0.0 + 1.0)
    tl.store(o + 8 * BLOCK, libdevice.pow(t, n))
    tl.store(o + 9 * BLOCK, t * (t * t))


@needs_interpreter
def test_libdevice_pow_of_an_integer_exponent_is_its_products():
    """Red team rt60: libdevice.pow(x, 3) is __nv_powif on the GPU (binary exponentiation:
    x * (x * x), rounded at each product, a negative exponent's IEEE reciprocal), where the
    shim took numpy's correctly rounded power of the float 3.0 (unequal to the products
    somewhere on the CPU only); an int tensor exponent likewise. Float64 (__nv_powi) too."""
    for dtype in (torch.float32, torch.float64):
        t = (torch.arange(256, dtype=dtype) * 7919 % 1000) * 0.001237 + 0.1
        n = torch.full((256,), 3, dtype=torch.int32)
        out = torch.empty(10 * 256, dtype=dtype)
        powi_kernel[(1,)](t, n, out, BLOCK=256)
        pairs = out.view(5, 2, 256)
        assert torch.equal(pairs[:, 0], pairs[:, 1]), (dtype, pairs[:, 0] - pairs[:, 1])


@triton.jit
def unrolled_sums_kernel(out_ptr, SECOND_DOT: tl.constexpr):
    k = tl.arange(0, 1024)
    t = ((k * 7919) % 1000).to(tl.float32) * 0.001237 + 0.1
    t = tl.where(k % 3 == 0, t * 4096.0, t * 0.01)
    a = t.reshape(32, 32).to(tl.float16)
    r = tl.arange(0, 32)
    d = tl.dot(a, (r[:, None] == r[None, :]).to(tl.float16))
    xb = a.to(tl.float32)
    s0 = tl.zeros([32], dtype=tl.float32)
    s1 = tl.zeros([32], dtype=tl.float32)
    for i in tl.static_range(2):
        v = xb if (i == 0 or not SECOND_DOT) else d
        s = tl.sum(v, 1)
        if i == 0:
            s0 = s
        else:
            s1 = s
    tl.store(out_ptr + tl.arange(0, 32), s0)
    tl.store(out_ptr + 32 + tl.arange(0, 32), s1)


@needs_interpreter
def test_unrolled_copies_of_one_reduction_site_take_their_own_layouts():
    """Red team rt60: a tl.static_range body is unrolled on the GPU, one op per step at one call
    site; the CPU counted the static_range as a loop, matched no compiled op and drew one layout
    for the site, so a sum of a blocked tile in step 0 and of a tl.dot result (#mma) of the same
    bytes in step 1 agreed on the CPU only. Now the k-th run of the site takes the k-th op's
    layout, read: the two differ (other orders) and the same operand twice agrees."""
    out = torch.empty(64)
    unrolled_sums_kernel[(1,)](out, SECOND_DOT=True)
    first = out.clone()
    assert not torch.equal(out[:32], out[32:])
    unrolled_sums_kernel[(1,)](out, SECOND_DOT=True)
    assert torch.equal(out, first)  # read layouts: the same bits every run
    unrolled_sums_kernel[(1,)](out, SECOND_DOT=False)
    assert torch.equal(out[:32], out[32:])



@triton.jit
def cse_unrolled_sums_kernel(out_ptr):
    k = tl.arange(0, 1024)
    t = ((k * 7919) % 1000).to(tl.float32) * 0.001237 + 0.1
    t = tl.where(k % 3 == 0, t * 4096.0, t * 0.01)
    a = t.reshape(32, 32).to(tl.float16)
    r = tl.arange(0, 32)
    d = tl.dot(a, (r[:, None] == r[None, :]).to(tl.float16))
    xb = a.to(tl.float32)
    s0 = tl.zeros([32], dtype=tl.float32)
    s1 = tl.zeros([32], dtype=tl.float32)
    s2 = tl.zeros([32], dtype=tl.float32)
    for i in tl.static_range(3):
        v = xb if i < 2 else d
        s = tl.sum(v, 1)
        if i == 0:
            s0 = s
        if i == 1:
            s1 = s
        if i == 2:
            s2 = s
    tl.store(out_ptr + tl.arange(0, 32), s0)
    tl.store(out_ptr + 32 + tl.arange(0, 32), s1)
    tl.store(out_ptr + 64 + tl.arange(0, 32), s2)


@needs_interpreter
def test_an_unrolled_copy_cse_merged_takes_the_merged_ops_layout():
    """Three copies of one site where the first two reduce the same value: CSE leaves two ops
    (the GPU's second sum is the first's), so the run that reduces the very operand of an
    earlier run takes that run's copy, and the third (a tl.dot result) the next op's layout."""
    out = torch.empty(96)
    cse_unrolled_sums_kernel[(1,)](out)
    assert torch.equal(out[:32], out[32:64]) and not torch.equal(out[:32], out[64:])
