"""A float product feeding an add under the CPU interpreter as sm_90 code computes it
(evaluator.interpreter_fusion, red team rt76): Triton compiles with FP fusion on, so LLVM's
NVPTX back end contracts fmul + fadd/fsub in one basic block into fma.rn (one rounding), and
`g * g - p` with `p = g * g` is the product's rounding error there, where numpy's two
roundings made it 0. A product made before a loop and added inside it stays two roundings
(the PTX for GPUTarget("cuda", 90, 32) has mul.f32 and sub.f32 there).

TRITON_INTERPRET=1 must be set before triton is first imported, so, as
test_interpreter_rt60 does, this module runs itself once more in a child pytest with the
variable set; every test runs under the candidate child's hooks (the module's fixture).
"""
from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks

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
def contracted_kernel(g_ptr, c_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    c = tl.load(c_ptr + offs)
    p = g * g
    tl.store(out_ptr + offs, g * g - p)  # fma(g, g, -p): the product's error
    tl.store(out_ptr + BLOCK + offs, c - g * g)  # fma(-g, g, c)
    tl.store(out_ptr + 2 * BLOCK + offs, g * c + c)  # fma(g, c, c)
    # two adds that start at one column (Triton's locations hold the start only): both fused;
    # its `g * g - p` is the one above to the TTGIR's CSE, which the GPU fused
    tl.store(out_ptr + 3 * BLOCK + offs, g * g - p + 0.5 * c)


@triton.jit
def through_views_kernel(g_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    p = g * g
    # a product the lowering makes no instruction between (expand_dims, broadcast): fma.rn in
    # the PTX; a select is no product, the subtrahend's is fused: fma.rn(-g, g, select(!c, 0.25, p))
    tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], (g * 1.5)[:, None] - p[None, :])
    tl.store(out_ptr + BLOCK * BLOCK + offs, tl.where(offs % 2 == 0, g * g, 0.25) - p)


@triton.jit
def if_arm_kernel(g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    p = g * g
    q = g * g
    if n > 3:
        e = q - p
    else:
        e = p * 0.0
    tl.store(out_ptr + offs, e)


@triton.jit
def converted_product_kernel(g_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    p = g * g
    tl.store(out_ptr + offs, tl.reshape((g * g)[None, :] - p[None, :], (BLOCK,)))


@triton.jit
def across_a_loop_kernel(g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    p = g * g
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for _ in range(n):
        acc += p - tl.load(out_ptr + offs)  # the product is another block's: two roundings
    tl.store(out_ptr + offs, acc)


def _f32_fma(a, b, c):
    """float32 fma with one rounding, exactly (Fractions)."""
    return np.array([np.float32(float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))))
                     for x, y, z in zip(a, b, c)], dtype=np.float32)


@needs_interpreter
def test_a_product_added_in_its_block_rounds_once():
    gen = torch.Generator().manual_seed(0)
    g = torch.randn(64, generator=gen) * 1.7 + 0.3
    c = torch.randn(64, generator=gen)
    out = torch.empty(4 * 64)
    contracted_kernel[(1,)](g, c, out, BLOCK=64)
    gn, cn, got = g.numpy(), c.numpy(), out.numpy().reshape(4, 64)
    p = (gn * gn).astype(np.float32)
    assert np.count_nonzero(got[0]) > 32  # numpy's two roundings gave 0 everywhere
    np.testing.assert_array_equal(got[0], _f32_fma(gn, gn, -p))
    np.testing.assert_array_equal(got[1], _f32_fma(-gn, gn, cn))
    np.testing.assert_array_equal(got[2], _f32_fma(gn, cn, cn))
    np.testing.assert_array_equal(got[3], _f32_fma(np.full(64, np.float32(0.5)), cn, got[0]))


@needs_interpreter
def test_a_product_through_views_and_selects_rounds_once():
    g = torch.randn(32, generator=torch.Generator().manual_seed(2)) * 1.7 + 0.3
    out = torch.empty(32 * 32 + 32)
    through_views_kernel[(1,)](g, out, BLOCK=32)
    gn = g.numpy()
    p = (gn * gn).astype(np.float32)
    rows = out[:32 * 32].numpy().reshape(32, 32)
    for i in (0, 5, 31):
        np.testing.assert_array_equal(rows[i], _f32_fma(np.full(32, gn[i]), np.full(32, np.float32(1.5)), -p))
    chosen = out[32 * 32:].numpy()
    np.testing.assert_array_equal(chosen[0::2], _f32_fma(-gn[0::2], gn[0::2], p[0::2]))
    np.testing.assert_array_equal(chosen[1::2], _f32_fma(-gn[1::2], gn[1::2], np.full(16, np.float32(0.25))))


@needs_interpreter
@pytest.mark.xfail(strict=True, reason="open (red team rt76): LLVM speculates the if's cheap arm into "
                   "a select and fuses the product made above it (fma.rn in the PTX at BLOCK=1024, "
                   "num_warps=4); the TTGIR read keeps another block's product two roundings")
def test_a_product_above_an_if_arm_the_gpu_speculates_rounds_once():
    g = torch.randn(1024, generator=torch.Generator().manual_seed(3)) * 1.7 + 0.3
    out = torch.empty(1024)
    if_arm_kernel[(1,)](g, out, 8, BLOCK=1024)
    assert int((out != 0).sum()) > 512


@needs_interpreter
def test_a_product_behind_a_register_layout_conversion_rounds_once():
    """The TTGIR's CSE makes both operands one product behind a ttg.convert_layout, which the
    lowering does in registers at BLOCK=1024 (fma.rn in the PTX): no compiled add has a product
    operand at that site, so the interpreter fuses (it rounded twice, 0: ok at reward 1.017)."""
    g = torch.randn(1024, generator=torch.Generator().manual_seed(4)) * 1.7 + 0.3
    out = torch.empty(1024)
    converted_product_kernel[(1,)](g, out, BLOCK=1024)
    assert int((out != 0).sum()) > 512


@triton.jit
def half_kernel(g_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    g = tl.load(g_ptr + offs)
    p = g * g
    tl.store(out_ptr + offs, g * g - p)


@needs_interpreter
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64])
def test_half_and_double_products_round_once(dtype):
    """fma.rn.f16, fma.rn.bf16 and fma.rn.f64 in the PTX: the error of the rounded product,
    nonzero where the product is inexact, and within half its unit in the last place."""
    # drawn in float64: a float32 draw widened has 24 bits, whose square float64 holds exactly
    g = (torch.randn(256, generator=torch.Generator().manual_seed(5), dtype=torch.float64) * 1.7 + 0.3).to(dtype)
    out = torch.empty(256, dtype=dtype)
    half_kernel[(1,)](g, out, BLOCK=256)
    p = (g * g).double()
    err = out.double()
    assert int((err != 0).sum()) > 64
    assert torch.all(err.abs() <= p.abs() * torch.finfo(dtype).eps)


@needs_interpreter
def test_a_product_of_another_block_rounds_twice():
    g = torch.randn(64, generator=torch.Generator().manual_seed(1)) * 1.7 + 0.3
    out = torch.zeros(64)
    across_a_loop_kernel[(1,)](g, out, 1, BLOCK=64)
    gn = g.numpy()
    np.testing.assert_array_equal(out.numpy(), (gn * gn).astype(np.float32))


@triton.jit(noinline=True)
def _sub_noinline(a, b):
    return a - b


@triton.jit(noinline=True)
def _square_error_noinline(g):
    p = g * g
    return g * g - p


@triton.jit
def _sub_inlined(a, b):
    return a - b


@triton.jit
def noinline_kernel(g_ptr, out_ptr, N: tl.constexpr):
    i = tl.program_id(0)
    g = tl.load(g_ptr + i)
    p = g * g
    tl.store(out_ptr + i, _sub_noinline(g * g, p))  # a real call on the GPU: two roundings
    tl.store(out_ptr + N + i, _square_error_noinline(g))  # inside the helper: fma(g, g, -p)
    tl.store(out_ptr + 2 * N + i, _sub_inlined(g * g, p))  # inlined: fma(g, g, -p)


@needs_interpreter
def test_a_product_across_a_noinline_call_rounds_twice():
    """Red team rt78: a noinline helper is its own function on sm_90, so the caller's g * g
    handed to its subtract is not contracted (0 there); the CPU fused it, and a ReLU gated on
    the difference being nonzero was ok on the CPU only."""
    g = torch.randn(16, generator=torch.Generator().manual_seed(5)) * 1.7 + 0.3
    out = torch.empty(3 * 16)
    noinline_kernel[(16,)](g, out, N=16)
    gn, got = g.numpy(), out.numpy().reshape(3, 16)
    p = (gn * gn).astype(np.float32)
    np.testing.assert_array_equal(got[0], np.zeros(16, np.float32))
    assert np.count_nonzero(got[2]) > 8
    np.testing.assert_array_equal(got[1], _f32_fma(gn, gn, -p))
    np.testing.assert_array_equal(got[2], _f32_fma(gn, gn, -p))
