"""What the GPU's compiler, launcher and autotuner do with a kernel that Triton's CPU interpreter
did not (red team s44): each such kernel was ok on the CPU and wrong or failing on an H200.

- tl.cat and tl.reshape(can_reorder=True) put elements in an order the GPU's layout decides:
  here the one the compiled op's layouts give (evaluator.register_order), or where none is
  read a random one, fixed per op, shapes and dtype in a child, so only order-free uses stay
  right (evaluator.interpreter_layout);
- a tl.gather index outside the tile reads shared memory outside it on the GPU: refused;
- a tl.histogram value outside [0, bins) is binned by its low bits on the GPU: refused unmasked;
- `debug=True` turns tl.device_assert and the integer overflow checks on, as on the GPU;
- grids over CUDA's limits, and cooperative launches, fail as the GPU's launch does;
- a wait on a plain tl.load is a loop the GPU's compiler deletes (evaluator.interpreter_schedule);
- a device-side tensor descriptor needs an allocator (evaluator.device_compile);
- an autotuner's benchmark: test_interpreter_autotune.py.

TRITON_INTERPRET=1 must be set before triton is first imported: as test_device_compile does,
this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module")
def hooks():
    with candidate_child_hooks() as recorder:
        yield recorder


@triton.jit
def cat_kernel(x_ptr, o_ptr, s_ptr, BLOCK: tl.constexpr):
    a = tl.load(x_ptr + tl.arange(0, BLOCK))
    b = tl.load(x_ptr + BLOCK + tl.arange(0, BLOCK))
    c = tl.cat(a, b, can_reorder=True)
    tl.store(o_ptr + tl.arange(0, 2 * BLOCK), c)
    tl.store(s_ptr, tl.sum(c, axis=0))


@triton.jit
def reshape_kernel(x_ptr, o_ptr, s_ptr, R: tl.constexpr, C: tl.constexpr, REORDER: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    flat = tl.reshape(x, (R * C,), can_reorder=REORDER)
    tl.store(o_ptr + tl.arange(0, R * C), flat)
    tl.store(s_ptr, tl.sum(flat, axis=0))


@needs_interpreter
def test_elements_the_gpu_may_reorder_come_out_in_the_compiled_layouts_order(hooks):
    """tl.cat always may reorder in Triton 3.9, and tl.reshape with can_reorder=True does: on the
    GPU the result is the permutation its layouts decide (evaluator.register_order, read off
    the TTGIR the launch hook compiles for sm_90). Two loaded [64] tiles at 4 warps come out
    interleaved (each thread's register of a, then of b: red team rt49); stored in place that
    is wrong here too, summed it is right; a reshape keeps each thread's registers, and a
    loaded [8, 16] tile into [128] keeps row-major order (the layouts tile alike), as one
    without can_reorder does."""
    x = torch.randn(128)
    out, total = torch.empty(128), torch.empty(1)
    cat_kernel[(1,)](x, out, total, BLOCK=64)
    assert torch.equal(out, x.view(2, 64).t().reshape(-1))
    assert torch.allclose(total, x.sum(), atol=1e-4)
    for reorder in (True, False):
        reshape_kernel[(1,)](x, out, total, R=8, C=16, REORDER=reorder)
        assert torch.equal(out, x)
        assert torch.allclose(total, x.sum(), atol=1e-4)


@triton.jit
def two_cats_kernel(o_ptr, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    b = tl.arange(BLOCK, 2 * BLOCK)
    c1 = tl.cat(a, b, can_reorder=True)
    c2 = tl.cat(a, b, can_reorder=True)
    tl.store(o_ptr + tl.arange(0, 2 * BLOCK), c1)
    tl.store(o_ptr + 2 * BLOCK + tl.arange(0, 2 * BLOCK), c2)
    r1 = tl.reshape(c1, (2 * BLOCK,), can_reorder=True)
    r2 = tl.reshape(c1, (2 * BLOCK,), can_reorder=True)
    tl.store(o_ptr + 4 * BLOCK + tl.arange(0, 2 * BLOCK), r1)
    tl.store(o_ptr + 6 * BLOCK + tl.arange(0, 2 * BLOCK), r2)


@needs_interpreter
def test_one_ops_order_is_the_same_at_every_call_and_in_every_child(hooks):
    """The compiled order is the layouts', not a draw: two identical cats (one op after the
    GPU's CSE) and two identical reshapes agree, a second launch and another kernel of the
    same shapes give the same order, and so does a new child (keyed_draw's secret redrawn
    after fork; red team rt48: a fresh permutation per call told the CPU by
    cat(a, b) != cat(a, b))."""
    from evaluator import keyed_draw

    out = torch.empty(512, dtype=torch.int32)
    two_cats_kernel[(1,)](out, BLOCK=64)
    cats, reshapes = out[:256].view(2, 128), out[256:].view(2, 128)
    assert torch.equal(cats[0], cats[1]) and torch.equal(reshapes[0], reshapes[1])
    assert torch.equal(cats[0], torch.arange(128, dtype=torch.int32).view(2, 64).t().reshape(-1))
    assert torch.equal(reshapes[0], cats[0])  # a reshape to its own shape folds away on the GPU
    again = torch.empty(512, dtype=torch.int32)
    two_cats_kernel[(1,)](again, BLOCK=64)
    assert torch.equal(again, out)
    x, stored = torch.randperm(128).to(torch.int32), torch.empty(128, dtype=torch.int32)
    cat_kernel[(1,)](x, stored, torch.empty(1, dtype=torch.int32), BLOCK=64)  # another kernel, the same shapes and dtype
    assert torch.equal(stored, x[cats[0].long()])
    before = keyed_draw._SECRET[0]
    try:
        keyed_draw._redraw()
        two_cats_kernel[(1,)](again, BLOCK=64)
    finally:
        keyed_draw._SECRET[0] = before
    assert torch.equal(again, out)


def test_an_order_not_read_is_drawn_per_child():
    """Where no layout is read (interpreter_layout._order, the fallback): one permutation per
    (op, shapes, dtype, num_warps) in a child, the same at every call, another in a new child."""
    from evaluator import interpreter_layout, keyed_draw

    first = interpreter_layout._order("cat", ((64,), (64,), (128,)), "fp32", 128)
    assert np.array_equal(first, interpreter_layout._order("cat", ((64,), (64,), (128,)), "fp32", 128))
    assert sorted(first.tolist()) == list(range(128)) and first.tolist() != list(range(128))
    before = keyed_draw._SECRET[0]
    try:
        keyed_draw._redraw()
        interpreter_layout._ORDERS.clear()
        assert not np.array_equal(first, interpreter_layout._order("cat", ((64,), (64,), (128,)), "fp32", 128))
    finally:
        keyed_draw._SECRET[0] = before
        interpreter_layout._ORDERS.clear()


@triton.jit
def gather_kernel(x_ptr, i_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.gather(tl.load(x_ptr + offs), tl.load(i_ptr + offs), 0))


@needs_interpreter
def test_a_gather_index_outside_the_tile_is_refused(hooks):
    """numpy wraps a negative index to the tile's end, where the GPU reads shared memory before
    the tile (red team s44 rt19_c2: a "relu" that gathered x[-1 - i] in reverse)."""
    x, out = torch.randn(64), torch.zeros(64)
    index = torch.arange(63, -1, -1, dtype=torch.int32)
    gather_kernel[(1,)](x, index, out, BLOCK=64)
    assert torch.equal(out, x.flip(0))
    for bad in (index - 64, index + 1):
        out.zero_()
        with pytest.raises(Exception, match="KernelLayoutError.*outside the source"):
            gather_kernel[(1,)](x, bad, out, BLOCK=64)
        assert not out.any()


@triton.jit
def histogram_kernel(x_ptr, o_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(o_ptr + tl.arange(0, BINS), tl.histogram(x, BINS, mask=(x >= 0) & (x < BINS)))


@triton.jit
def histogram_unmasked_kernel(x_ptr, o_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    tl.store(o_ptr + tl.arange(0, BINS), tl.histogram(tl.load(x_ptr + tl.arange(0, BLOCK)), BINS))


@needs_interpreter
def test_a_histogram_value_outside_the_bins_is_refused_unless_masked(hooks):
    """The sm_90 lowering bins a value by its low log2(max(bins, 32)) bits and never drops one out
    of range, where numpy drops it: histogram(arange(64) + 64, 64) was all zeros on the CPU and
    all ones on an H200 (red team rt50, hacks/rt50_histogram_out_of_range_switch_relu). Values
    in range, and out-of-range ones masked off, count alike on both."""
    inside = torch.arange(64, dtype=torch.int32) % 16
    out = torch.zeros(16, dtype=torch.int32)
    histogram_unmasked_kernel[(1,)](inside, out, BLOCK=64, BINS=16)
    assert torch.equal(out, torch.full((16,), 4, dtype=torch.int32))
    spread = torch.arange(64, dtype=torch.int32) - 24  # -24..39 with 16 bins
    out.zero_()
    histogram_kernel[(1,)](spread, out, BLOCK=64, BINS=16)
    assert torch.equal(out, torch.ones(16, dtype=torch.int32))
    for bad in (torch.arange(64, dtype=torch.int32) + 64, torch.arange(64, dtype=torch.int32) - 1):
        wide = torch.zeros(64, dtype=torch.int32)
        with pytest.raises(Exception, match="KernelLayoutError.*outside its 64 bins"):
            histogram_unmasked_kernel[(1,)](bad, wide, BLOCK=64, BINS=64)
        assert not wide.any()


@triton.jit
def nonnegative_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_assert(x >= 0, "negative input")
    tl.store(o_ptr + offs, x, mask=offs < n)


nonnegative_debug_kernel = triton.jit(nonnegative_kernel.fn, debug=True)


@needs_interpreter
def test_device_asserts_trap_where_the_gpu_compiles_them(hooks):
    """With debug (the jit's or the launch's) the GPU's binary holds tl.device_assert and traps;
    without, it has none. The interpreter's own options never had debug, so an assert the GPU
    trips passed here (red team s44 rt19_c6)."""
    x, out = torch.randn(100), torch.zeros(100)
    nonnegative_kernel[(1,)](x, out, 100, BLOCK=128)
    assert torch.equal(out, x)
    with pytest.raises(Exception, match="negative input"):
        nonnegative_debug_kernel[(1,)](x, out, 100, BLOCK=128)
    with pytest.raises(Exception, match="negative input"):
        nonnegative_kernel[(1,)](x, out, 100, BLOCK=128, debug=True)
    nonnegative_debug_kernel[(1,)](x.abs(), out, 100, BLOCK=128)
    assert torch.equal(out, x.abs())


@triton.jit
def scaled_sum_kernel(x_ptr, o_ptr, scale, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(o_ptr + tl.arange(0, BLOCK), x * scale + x)


@needs_interpreter
def test_integer_overflow_traps_only_with_debug_and_wraps_as_the_gpu_does_without(hooks):
    """With debug the GPU checks each int32 add and multiply for overflow and traps; without,
    no check is compiled and the sum wraps. The check is made only where its assert runs
    (interpreter_guard: without debug its int64 arithmetic was made and thrown away)."""
    x, out = torch.full((16,), 1 << 20, dtype=torch.int32), torch.zeros(16, dtype=torch.int32)
    scaled_sum_kernel[(1,)](x, out, 1 << 12, BLOCK=16)
    wrapped = np.int64((1 << 32) + (1 << 20)).astype(np.int32)  # 2**32 + 2**20 in 32 bits
    assert torch.equal(out, torch.full((16,), int(wrapped), dtype=torch.int32))
    with pytest.raises(Exception, match="int32 overflow detected"):
        scaled_sum_kernel[(1,)](x, out, 1 << 12, BLOCK=16, debug=True)
    scaled_sum_kernel[(1,)](x, out, 3, BLOCK=16, debug=True)
    assert torch.equal(out, x * 4)


@triton.jit
def copy_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@needs_interpreter
def test_launches_the_gpus_launcher_refuses_are_refused(hooks):
    """A grid over 65535 programs along axis 1 fails its CUDA launch; a cooperative launch needs
    its whole grid resident at the problem's GPU sizes (red team s44 rt19_c7: 32768 programs)."""
    from evaluator.interpreter_guard import KernelLaunchError
    from evaluator.launch_args import KernelArgumentError

    x, out = torch.randn(64), torch.zeros(64)
    with pytest.raises(KernelLaunchError, match="65535"):
        copy_kernel[(1, 70000)](x, out, 64, BLOCK=64)
    with pytest.raises(KernelArgumentError, match="cooperative"):
        copy_kernel[(1,)](x, out, 64, BLOCK=64, launch_cooperative_grid=True)
    assert not out.any()
    copy_kernel[(1, 1)](x, out, 64, BLOCK=64)
    assert torch.equal(out, x)


@triton.jit
def wait_kernel(flag_ptr, o_ptr, VOLATILE: tl.constexpr):
    pid = tl.program_id(0)
    if pid == 1:
        tl.atomic_xchg(flag_ptr, 1)
    else:
        if VOLATILE:
            while tl.load(flag_ptr, volatile=True) == 0:
                pass
        else:
            while tl.load(flag_ptr) == 0:
                pass
        tl.store(o_ptr, 1.0)


@triton.jit
def wait_forever_kernel(flag_ptr, o_ptr):
    while tl.load(flag_ptr) == 0:
        pass
    tl.store(o_ptr, 1.0)


@needs_interpreter
def test_a_wait_on_a_plain_load_is_refused(hooks):
    """The GPU's compiler takes a loop that only reads plain memory for one without effect and
    deletes it (TTIR keeps no loop) or hoists the load: such a wait never waits there (red team
    s44 rt19_c9, a chained scan). A volatile poll is kept, and waits."""
    flag, out = torch.zeros(1, dtype=torch.int32), torch.zeros(1)
    with pytest.raises(Exception, match="KernelRaceError.*plain tl.load"):
        wait_forever_kernel[(1,)](flag, out)
    for _ in range(4):  # whichever program the schedule runs first
        flag.zero_(), out.zero_()
        wait_kernel[(2,)](flag, out, VOLATILE=True)
        assert out.item() == 1.0


@triton.jit
def descriptor_copy_kernel(x_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(o_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst.store([0, 0], src.load([0, 0]))


@needs_interpreter
def test_a_device_side_descriptor_needs_an_allocator(hooks):
    """A device-side tensor descriptor takes global scratch, which the GPU's launcher asks of
    triton.set_allocator's allocator; with none set the launch raises (red team s44 rt19_c4)."""
    from triton.runtime import _allocation

    from evaluator.device_compile import KernelNotCompilable

    x, out = torch.randn(32, 32), torch.zeros(32, 32)
    with pytest.raises(KernelNotCompilable, match="no allocator was set"):
        descriptor_copy_kernel[(1,)](x, out, 32, 32, BM=32, BN=32)
    assert not out.any()
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    try:
        descriptor_copy_kernel[(1,)](x, out, 32, 32, BM=32, BN=32)
    finally:
        _allocation._allocator.set(_allocation.NullAllocator())
    assert torch.equal(out, x)
