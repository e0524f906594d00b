"""tl.reduce with a combine function of the file's own, under the CPU interpreter
(evaluator.interpreter_reduce): a Welford layer norm's statistics come out right and fast (it
took 13.5 s per forward element by element, and its evaluation timed out), a combine that
is associative but not commutative gives the in-order answer, and one that cannot take
blocks (a Python `if` on a value) still runs, element by element.

TRITON_INTERPRET=1 must be set before triton is first imported: as test_device_compile
does, this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os
import time

import pytest
import torch
import triton
import triton.language as tl

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module")
def guarded():
    """The interpreter as a CPU candidate child has it (the guard installs the tree reduce)."""
    from evaluator import interpreter_guard

    assert interpreter_guard.install()


@triton.jit
def welford_combine(mean_1, m2_1, w_1, mean_2, m2_2, w_2):
    delta = mean_2 - mean_1
    w = w_1 + w_2
    f = tl.where(w == 0.0, 0.0, w_2 / w)
    return mean_1 + delta * f, m2_1 + m2_2 + delta * delta * w_1 * f, w


@triton.jit
def _row_stats(x_ptr, mean_ptr, var_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
    mean, m2, w = tl.reduce((x, tl.zeros_like(x), mask.to(tl.float32)), 0, welford_combine)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2 / w)


@triton.jit
def compose(a_1, b_1, a_2, b_2):  # x -> a*x + b maps, the first applied first: not commutative
    return a_1 * a_2, b_1 * a_2 + b_2


@triton.jit
def _fold_maps(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b = tl.reduce((tl.load(a_ptr + offs), tl.load(b_ptr + offs)), 0, compose)
    tl.store(out_ptr, a)
    tl.store(out_ptr + 1, b)


@triton.jit
def larger(a, b):
    if a > b:  # a scalar branch: compiles on the GPU, cannot take a block here
        return a
    return b


@triton.jit
def _branchy_max(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr, tl.reduce(tl.load(x_ptr + tl.arange(0, BLOCK)), 0, larger))


@needs_interpreter
def test_a_welford_reduce_is_right_and_fast(guarded):
    x = torch.randn(16, 1500)
    mean, var = torch.empty(16), torch.empty(16)
    start = time.perf_counter()
    _row_stats[(16,)](x, mean, var, 1500, BLOCK=2048)
    seconds = time.perf_counter() - start
    assert torch.allclose(mean, x.mean(1), atol=1e-5) and torch.allclose(var, x.var(1, unbiased=False), atol=1e-4)
    assert seconds < 8.0, seconds  # 13.5 s element by element (a 16 x 1500 layer norm's forward); up to 64 in-thread combines on blocks in a drawn layout


@needs_interpreter
@pytest.mark.parametrize("lay", [(16, 1, 1, 1), (1, 16, 1, 1), (2, 4, 2, 1), (1, 4, 2, 2)])
def test_an_associative_combine_goes_in_the_layouts_order(guarded, monkeypatch, lay):
    """Not commutative: the answer is the GPU's order under the layout (per thread in order,
    then the lanes' and warps' butterflies), the left fold only where one thread holds all."""
    import numpy as np

    from evaluator import interpreter_order

    monkeypatch.setattr(interpreter_order, "placed", lambda n, *rest: (lay, ("test",)))
    a = torch.tensor([1, -1, 2, 1, -1, 1, 1, 2, -1, 1, 1, 1, 2, 1, -1, 1], dtype=torch.int32)
    b = torch.arange(1, 17, dtype=torch.int32) * torch.tensor([1, -1] * 8, dtype=torch.int32)
    out = torch.empty(2, dtype=torch.int32)
    _fold_maps[(1,)](a, b, out, BLOCK=16)
    fa, fb = interpreter_order.reduce_exact([a.numpy(), b.numpy()],
                                            lambda x, y: [x[0] * y[0], x[1] * y[0] + y[1]], lay)
    assert out.tolist() == [int(fa), int(fb)]
    if lay[0] == 16:
        fa, fb = 1, 0
        for ai, bi in zip(a.tolist(), b.tolist()):  # the left fold, in order
            fa, fb = fa * ai, fb * ai + bi
        assert out.tolist() == [fa, fb]
    assert np.ndim(fa) == 0


@triton.jit
def _plus(a, b):
    return a + b


@triton.jit
def _through_helper(a, b):
    return _plus(a, b)  # a call of a plain name: not straight line, run element by element


@triton.jit
def _helper_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.reduce(x, 0, _through_helper))
    tl.store(out_ptr + 1 + offs, tl.associative_scan(x, 0, _through_helper))


@needs_interpreter
@pytest.mark.parametrize("lay", [(1, 32, 2, 1), (2, 8, 4, 1), (64, 1, 1, 1)])
def test_a_combine_that_calls_a_helper_goes_in_the_layouts_order(guarded, monkeypatch, lay):
    """Red team rt49: `_comb(a, b): return _plus(a, b)` is not straight line and was folded
    left to right (sum of [1, 2^-24 x 63] exactly 1.0 on the CPU, 1.0000037 through the H200's
    lane butterfly); element by element it now goes in the layout's order, reduce and scan."""
    import numpy as np

    from evaluator import interpreter_order

    monkeypatch.setattr(interpreter_order, "placed", lambda n, *rest: (lay, ("test",)))
    x = torch.full((64,), 2.0 ** -24)
    x[0] = 1.0
    out = torch.empty(65)
    _helper_sum[(1,)](x, out, BLOCK=64)
    add = lambda p, q: [np.float32(p[0] + q[0]) if np.ndim(p[0]) == 0 else (p[0] + q[0]).astype(np.float32)]  # noqa: E731
    want = interpreter_order.reduce_exact([x.numpy()], add, lay)[0]
    assert out[0].item() == float(want)
    assert (out[0].item() > 1.0) == (lay[0] < 64)
    scanned = interpreter_order.scan_exact([x.numpy()], add, lay)[0]
    assert np.array_equal(out[1:].numpy(), scanned)


@triton.jit
def _scan_maps(a_ptr, b_ptr, oa_ptr, ob_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b = tl.associative_scan((tl.load(a_ptr + offs), tl.load(b_ptr + offs)), 0, compose)
    tl.store(oa_ptr + offs, a)
    tl.store(ob_ptr + offs, b)


@needs_interpreter
@pytest.mark.parametrize("lay", [(1, 32, 2, 2), (2, 8, 4, 2), (2, 16, 2, 2), (128, 1, 1, 1)])
def test_a_straight_line_scan_runs_on_blocks_in_the_layouts_order(guarded, monkeypatch, lay):
    """Honest round s58e: a cumsum through tl.associative_scan and its own `a + b` ran element by
    element (11 s a forward, a timeout), as the lanes' Kogge-Stone steps (31, 30, 28, ... lanes)
    are no power of two for a Triton block. On blocks now (flat, padded), and every block's
    combine with its carry in one call: the answer is still the layout's order, the element-by-
    element one, for a combine that is not commutative."""
    import numpy as np

    from evaluator import interpreter_order, interpreter_reduce

    monkeypatch.setattr(interpreter_order, "placed", lambda n, *rest: (lay, ("test",)))
    calls = []
    real = interpreter_reduce._each
    monkeypatch.setattr(interpreter_reduce, "_each", lambda *a: (calls.append(1), real(*a))[1])
    gen = torch.Generator().manual_seed(0)
    a = torch.randint(-1, 2, (128,), generator=gen, dtype=torch.int32)
    b = torch.randint(-5, 6, (128,), generator=gen, dtype=torch.int32)
    oa, ob = torch.empty_like(a), torch.empty_like(b)
    _scan_maps[(1,)](a, b, oa, ob, BLOCK=128)
    fa, fb = interpreter_order.scan_exact([a.numpy(), b.numpy()],
                                          lambda x, y: [x[0] * y[0], x[1] * y[0] + y[1]], lay)
    assert np.array_equal(oa.numpy(), fa) and np.array_equal(ob.numpy(), fb)
    assert not calls  # on blocks, not element by element


@needs_interpreter
def test_a_cumsum_through_a_files_own_add_is_fast(guarded):
    x = torch.randn(16, 1200)
    out = torch.empty_like(x)
    start = time.perf_counter()
    for row in range(16):
        _helper_free_cumsum[(1,)](x[row], out[row], 1200, BLOCK=1024)
    seconds = time.perf_counter() - start
    assert torch.allclose(out, x.cumsum(1), atol=1e-4)
    assert seconds < 6.0, seconds  # 11 s element by element


@triton.jit
def _helper_free_cumsum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    carry = 0.0
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + cols, mask=cols < n, other=0.0)
        tl.store(out_ptr + cols, tl.associative_scan(v, 0, _plus) + carry, mask=cols < n)
        carry += tl.sum(v, 0)


@needs_interpreter
def test_a_combine_that_cannot_take_blocks_runs_element_by_element(guarded):
    x = torch.randn(64)
    out = torch.empty(1)
    _branchy_max[(1,)](x, out, BLOCK=64)
    assert out.item() == x.max().item()


@triton.jit
def _add_one(v):
    return v + 1.0


@triton.jit
def _helper_loop(x_ptr, out_ptr, BLOCK: tl.constexpr, CALLS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs)
    for _ in tl.static_range(CALLS):
        v = _add_one(v)
    tl.store(out_ptr + offs, tl.sum(v, axis=0) + v * 0.0)


@needs_interpreter
def test_a_helper_call_in_a_running_program_does_not_patch_the_language_again(guarded, monkeypatch):
    """Triton's interpreter patched triton.language on every device-function call (a scan of
    each module's members, a sixth of an elementwise kernel's time); the launch's patch holds
    while its programs run, so a helper called 8 times in each of 4 programs patches once,
    and still computes what it did."""
    from triton.runtime import interpreter

    scans = []
    real = interpreter._patch_builtin
    monkeypatch.setattr(interpreter, "_patch_builtin", lambda *a: (scans.append(a[0]), real(*a))[1])
    x = torch.arange(64, dtype=torch.float32)
    out = torch.empty(64)
    _helper_loop[(4,)](x, out, BLOCK=64, CALLS=8)
    assert torch.equal(out, torch.full((64,), float((x + 8).sum())))
    per_launch = len(scans)
    scans.clear()
    _helper_loop[(4,)](x, out, BLOCK=64, CALLS=8)
    assert len(scans) == per_launch <= 8  # the launch's own patch (tl, tl.tensor, tl.math, ...)


@triton.jit
def _tied_indices(x_ptr, out_ptr, BLOCK: tl.constexpr, LEFT: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + row * 4, tl.argmax(x, 0, tie_break_left=LEFT))
    tl.store(out_ptr + row * 4 + 1, tl.argmin(x, 0, tie_break_left=LEFT))
    _, i = tl.max(x, 0, return_indices=True, return_indices_tie_break_left=LEFT)
    _, j = tl.min(x, 0, return_indices=True, return_indices_tie_break_left=LEFT)
    tl.store(out_ptr + row * 4 + 2, i)
    tl.store(out_ptr + row * 4 + 3, j)


@needs_interpreter
def test_a_tie_break_fast_index_is_the_gpu_trees(guarded):
    """tie_break_left=False: the GPU's combine keeps the later operand of a tie, so the index is
    its shuffle tree's (an H200 answered N-1 for all-equal tiles), where the interpreter answered
    the leftmost, a tell a kernel could steer on (red team s46). Now the drawn layout's tree: the
    same for every row of a launch, as one compiled kernel is; True stays the leftmost."""
    rows = 64
    x = torch.zeros(rows, 16)
    x[:, 3] = x[:, 9] = x[:, 12] = 1.0  # tied maxima at 3, 9, 12; the minimum ties at the rest
    x[:, 0] = x[:, 5] = -1.0  # tied minima at 0 and 5
    out = torch.empty(rows, 4, dtype=torch.int32)
    _tied_indices[(rows,)](x, out, BLOCK=16, LEFT=False)
    for col, tied in ((0, {3, 9, 12}), (1, {0, 5}), (2, {3, 9, 12}), (3, {0, 5})):
        seen = set(out[:, col].tolist())
        assert len(seen) == 1 and seen <= tied, (col, seen)
    zeros = torch.zeros(rows, 16)
    _tied_indices[(rows,)](zeros, out, BLOCK=16, LEFT=False)
    assert out.tolist() == [[15, 15, 15, 15]] * rows
    _tied_indices[(rows,)](x, out, BLOCK=16, LEFT=True)
    assert out.tolist() == [[3, 0, 3, 0]] * rows
    _tied_indices[(rows,)](zeros, out, BLOCK=16, LEFT=True)
    assert out.tolist() == [[0, 0, 0, 0]] * rows


@needs_interpreter
def test_an_argmax_over_nans_is_the_gpu_combines(guarded):
    """Triton's combine compares `v1 > v2`: a NaN loses every comparison, so which index wins
    depends on the tree (numpy's nanargmax skipped NaNs). Rows without a NaN are exact."""
    x = torch.randn(8, 16)
    x[:4, 2] = float("nan")
    out = torch.empty(8, 4, dtype=torch.int32)
    _tied_indices[(8,)](x, out, BLOCK=16, LEFT=True)
    assert out[4:, 0].tolist() == x[4:].argmax(1).tolist() and out[4:, 1].tolist() == x[4:].argmin(1).tolist()
    assert ((out[:4] >= 0) & (out[:4] < 16)).all()


@triton.jit
def _reductions(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr + 0, tl.sum(x, 0))
    tl.store(out_ptr + 1, tl.max(x, 0).to(x.dtype))
    tl.store(out_ptr + 2, tl.argmax(x, 0).to(x.dtype))
    tl.store(out_ptr + 3, tl.argmin(x, 0).to(x.dtype))
    tl.store(out_ptr + 4 + tl.arange(0, N), tl.cumsum(x, 0))


@needs_interpreter
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_a_half_sum_and_cumsum_are_right_without_an_upcast(guarded, dtype):
    """tl.sum / tl.cumsum / argmax of bfloat16 added and compared the values' bit patterns (64
    ones summed to -4.6e-10; red team rt24): an honest bfloat16 row sum was garbage on the CPU."""
    x = torch.linspace(-3, 2, 64).to(dtype)
    out = torch.zeros(4 + 64, dtype=dtype)
    _reductions[(1,)](x, out, N=64)
    ref = x.double()
    ulp = {torch.bfloat16: 2 ** -8, torch.float16: 2 ** -11, torch.float32: 2 ** -24}[dtype]
    assert abs(out[0].double() - ref.sum()) <= 64 * ulp * ref.abs().sum()
    assert out[1].item() == 2.0 and out[2].item() == 63 and out[3].item() == 0
    assert torch.allclose(out[4:].double(), ref.cumsum(0), atol=64 * ulp * ref.abs().sum().item())
    ones = torch.ones(64, dtype=dtype)
    _reductions[(1,)](ones, out, N=64)
    assert out[0].item() == 64.0 and out[4:].tolist() == list(range(1, 65))


@needs_interpreter
def test_a_float16_sum_rounds_every_combine(guarded):
    """The GPU keeps float16 and rounds each `a + b` (Triton's _pick_sum_dtype), pairing 1 with
    small partial sums along its tree; numpy accumulated in float32 and answered 1.5."""
    from evaluator import interpreter_order

    x = torch.full((1024,), 2.0 ** -11, dtype=torch.float16)
    x[0] = 1.0
    out = torch.zeros(4 + 1024, dtype=torch.float16)
    _reductions[(1,)](x, out, N=1024)
    assert 1.46 < out[0].item() < 1.5
    assert out[4 + 1023].item() < 1.5
    c, t, w, _ = interpreter_order.layout(1024, "sum")
    assert c * t * w <= 1024 and 1024 // (t * w) <= 64


@triton.jit
def _dot16(a_ptr, b_ptr, out_ptr, K: tl.constexpr):
    r = tl.arange(0, 16)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + r[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 16 + r[None, :])
    acc = tl.full((16, 16), 1.0, tl.float16)
    tl.store(out_ptr + r[:, None] * 16 + r[None, :], tl.dot(a, b, acc, out_dtype=tl.float16))


@needs_interpreter
def test_a_float16_accumulator_rounds_after_every_k_step(guarded):
    """wgmma with a float16 accumulator rounds it after every k-step of 16; numpy rounded once
    (red team rt24: 1 + 16 x 0.75 ulp was 1 + 12 ulp on the CPU, 1 + 16 on the GPU)."""
    a = torch.zeros(16, 256, dtype=torch.float16)
    a[:, 1::16] = 3 * 2.0 ** -12
    b = torch.ones(256, 16, dtype=torch.float16)
    out = torch.empty(16, 16, dtype=torch.float16)
    _dot16[(1,)](a, b, out, K=256)
    assert (out == 1.0 + 16 * 2.0 ** -10).all()
    a, b = torch.randn(16, 64).half(), torch.randn(64, 16).half()
    _dot16[(1,)](a, b, out, K=64)
    assert torch.allclose(out.float(), a.float() @ b.float() + 1.0, atol=2e-2)


@triton.jit
def _twice(x_ptr, out_ptr):
    r = tl.arange(0, 32)
    x = tl.load(x_ptr + r[:, None] * 32 + r[None, :])
    d = tl.dot(x, x)
    c1 = tl.cumsum(d, 1)
    c2 = tl.cumsum(d, 1)
    s1 = tl.sum(x * 1.5, 1)
    s2 = tl.sum(x * 1.5, 1)
    tl.store(out_ptr, tl.sum(tl.sum((c1 != c2).to(tl.int32), 1), 0))
    tl.store(out_ptr + 1, tl.sum((s1 != s2).to(tl.int32), 0))
    tl.store(out_ptr + 2, tl.sum(tl.sum((tl.cumsum(x, 1) != tl.cumsum(x, 1)).to(tl.int32), 1), 0))


@needs_interpreter
def test_two_identical_reductions_of_one_operand_agree(guarded):
    """CSE merges two identical tt.reduce/tt.scan ops of one value on the GPU, so they answer
    alike there; on the CPU a call site without a layout of its own (no record, or a drawn
    one) takes that of the first op of an equal operand, kind and axis (red team rt59: two
    cumsums of a tl.dot result differed on the CPU only, the switch of an honest-only-there
    file)."""
    for seed in range(4):
        x = torch.rand(32, 32, generator=torch.Generator().manual_seed(seed)) * 3.7 + 0.1
        out = torch.full((3,), -1, dtype=torch.int32)
        _twice[(1,)](x, out)
        assert out.tolist() == [0, 0, 0]


@needs_interpreter
def test_a_combine_reading_its_shape_answers_the_gpus_per_element_value(guarded):
    """`a + b * a.type.is_block()` is `a` per element (the GPU's combine): its scan answers x[0]
    in every lane, not the cumsum the block run gave (hacks/s58k_combine_reads_block_type_cumsum)."""
    x = torch.randn(64)
    out = torch.empty(64)
    _block_type_scan[(1,)](x, out, BLOCK=64)
    assert torch.equal(out, x[:1].expand(64))


@triton.jit
def _reads_block_type(a, b):
    return a + b * a.type.is_block()


@triton.jit
def _block_type_scan(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.associative_scan(tl.load(x_ptr + offs), 0, _reads_block_type))


@triton.jit
def _flipped(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.flip(tl.load(x_ptr + offs), 0))


@needs_interpreter
def test_a_flip_through_tritons_own_xor_sum_is_exact_and_fast(guarded):
    # honest round s70f: tl.flip is eleven xor_sums of `a ^ b` for 2048 elements, run element by
    # element (1.4 s a flip), and a reverse cumsum through it timed out in correctness
    x = torch.randn(6, 2048)
    out = torch.empty_like(x)
    _flipped[(1,)](x[0], out[0], BLOCK=2048)  # the first launch's one-time setup
    start = time.perf_counter()
    for row in range(6):
        _flipped[(1,)](x[row], out[row], BLOCK=2048)
    seconds = time.perf_counter() - start
    assert torch.equal(out, x.flip(1))
    assert seconds < 3.0, seconds  # 8 s element by element


@triton.jit
def _xor_sums(x_ptr, rows_ptr, kept_ptr, all_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    v = tl.load(x_ptr + offs)
    tl.store(rows_ptr + tl.arange(0, R), tl.xor_sum(v, 1))
    tl.store(kept_ptr + offs // C, tl.xor_sum(v, 1, keep_dims=True) + v * 0)
    tl.store(all_ptr, tl.xor_sum(v))


@needs_interpreter
def test_tritons_own_xor_sum_answers_each_packing_exactly(guarded):
    x = torch.randint(-2**30, 2**30, (8, 16), dtype=torch.int32)
    rows, kept, whole = torch.empty(8, dtype=torch.int32), torch.empty(8, dtype=torch.int32), \
        torch.empty(1, dtype=torch.int32)
    _xor_sums[(1,)](x, rows, kept, whole, R=8, C=16)
    import numpy as np

    expect = np.bitwise_xor.reduce(x.numpy(), axis=1)
    assert np.array_equal(rows.numpy(), expect) and np.array_equal(kept.numpy(), expect)
    assert whole.item() == np.bitwise_xor.reduce(expect)
