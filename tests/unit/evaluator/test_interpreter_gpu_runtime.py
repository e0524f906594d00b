"""What the GPU's compiler, launcher and autotuner do with a kernel that Triton's CPU interpreter
did not (red team s44): each such kernel was ok on the CPU and wrong or failing on an H200.

- tl.cat and tl.reshape(can_reorder=True) put elements in an order the GPU's layout decides:
  here a random one, fixed per op, shapes and dtype in a child, so only order-free uses stay
  right (evaluator.interpreter_layout);
- a tl.gather index outside the tile reads shared memory outside it on the GPU: refused;
- `debug=True` turns tl.device_assert and the integer overflow checks on, as on the GPU;
- grids over CUDA's limits, and cooperative launches, fail as the GPU's launch does;
- a wait on a plain tl.load is a loop the GPU's compiler deletes (evaluator.interpreter_schedule);
- a device-side tensor descriptor needs an allocator (evaluator.device_compile);
- an autotuner's benchmark runs the kernel on the launch's own tensors (evaluator.autotune_cpu).

TRITON_INTERPRET=1 must be set before triton is first imported: as test_device_compile does,
this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks, interpreted_child

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    interpreted_child(__file__)


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
def test_elements_the_gpu_may_reorder_come_out_in_any_order(hooks):
    """tl.cat always may reorder in Triton 3.9, and tl.reshape with can_reorder=True does: on the
    GPU the result is a permutation its layouts decide. Stored in place it is wrong here too,
    summed it is right; a reshape without can_reorder keeps row-major order."""
    x = torch.randn(128)
    out, total = torch.empty(128), torch.empty(1)
    cat_kernel[(1,)](x, out, total, BLOCK=64)
    assert not torch.equal(out, x) and torch.equal(out.sort().values, x.sort().values)
    assert torch.allclose(total, x.sum(), atol=1e-4)
    for reorder in (True, False):
        reshape_kernel[(1,)](x, out, total, R=8, C=16, REORDER=reorder)
        assert torch.equal(out, x) is not reorder and torch.equal(out.sort().values, x.sort().values)
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
def test_one_ops_order_is_the_same_at_every_call_and_another_child_may_draw_another(hooks):
    """The order is a pure function of the child's secret, the op, shapes, dtype and num_warps
    (interpreter_layout's rule): two identical cats (one op after the GPU's CSE) and two
    identical reshapes agree, a second launch and another kernel of the same shapes give the
    same order, and a new child (keyed_draw's secret redrawn after fork) draws another (red
    team rt48: a fresh permutation per call told the CPU by cat(a, b) != cat(a, b))."""
    from evaluator import keyed_draw

    out = torch.empty(512, dtype=torch.int32)
    two_cats_kernel[(1,)](out, BLOCK=64)
    cats, reshapes = out[:256].view(2, 128), out[256:].view(2, 128)
    assert torch.equal(cats[0], cats[1]) and torch.equal(reshapes[0], reshapes[1])
    assert not torch.equal(cats[0], torch.arange(128, dtype=torch.int32))
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
    assert not torch.equal(again[:128], out[:128]) and torch.equal(again[:128], again[128:256])


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


def _sum_configs():
    return [triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})]


@triton.jit
def _sum_into(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


sum_kernel = triton.autotune(configs=_sum_configs(), key=["n"])(_sum_into)
sum_reset_kernel = triton.autotune(configs=_sum_configs(), key=["n"], reset_to_zero=["out_ptr"])(_sum_into)


@needs_interpreter
def test_an_autotuners_benchmark_runs_on_the_launchs_own_tensors(hooks):
    """A GPU benchmarks a key's configs on the first launch's own arguments: a kernel that adds
    into its output without reset_to_zero comes out a multiple of the sum there (red team s44
    rt19_c3, an autotuned atomic MSE). One benchmark call per key and process here leaves it as
    wrong; with reset_to_zero it is right, and a later forward's pick does not benchmark."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        x = torch.randn(1000)
        grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
        for kernel, first in ((sum_kernel, 2.0), (sum_reset_kernel, 1.0)):
            autotune_cpu.next_forward(checked=True)
            out = torch.zeros(1)
            kernel[grid](x, out, 1000)
            assert torch.allclose(out, first * x.sum(), atol=1e-3)
            autotune_cpu.next_forward(checked=True)  # the next checked forward: picked, not benchmarked
            out = torch.zeros(1)
            kernel[grid](x, out, 1000)
            assert torch.allclose(out, x.sum(), atol=1e-3)
    finally:
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)
