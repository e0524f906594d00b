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
- an autotuner's benchmark runs the kernel on the launch's own tensors (evaluator.autotune_cpu).

TRITON_INTERPRET=1 must be set before triton is first imported: as test_device_compile does,
this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import contextlib
import os

import numpy as np
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


@contextlib.contextmanager
def _autotune_emulated():
    """The CPU child's emulation of an autotuner's benchmark (evaluator.autotune_cpu), taken
    back after the test, with no config pending."""
    from triton.runtime import autotuner

    from evaluator import autotune_cpu

    saved = {k: autotuner.Autotuner.__dict__[k] for k in ("do_bench", "prune_configs")}
    autotune_cpu.install()
    try:
        yield autotune_cpu
    finally:
        autotune_cpu._PENDING.clear()
        autotune_cpu.pins._MET.clear()
        autotune_cpu.pins._TRANSFORM[0] = None
        for k, v in saved.items():
            setattr(autotuner.Autotuner, k, v)


def _fresh(autotune_cpu, *kernels):
    """As in a new process: no key pruned, ordered or picked yet."""
    for kernel in kernels:
        autotune_cpu._ORDER.pop(kernel, None)
        kernel.cache.clear()


@needs_interpreter
def test_an_autotuners_benchmark_runs_on_the_launchs_own_tensors(hooks):
    """A GPU benchmarks a key's configs on the first launch's own arguments, many times each: a
    kernel that adds into its output without reset_to_zero comes out a multiple of the sum there
    (red team s44 rt19_c3, an autotuned atomic MSE), and is refused here at its first pick,
    naming the argument, with the tensors put back; with reset_to_zero it is right, and a later
    forward's pick does not benchmark."""
    from evaluator.autotune_cpu import KernelRunsDisagree

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        autotune_cpu.next_forward(checked=True)
        out = torch.zeros(1)
        with pytest.raises(KernelRunsDisagree, match="changes the tensor at argument `out_ptr`.*reset_to_zero="):
            sum_kernel[grid](x, out, 1000)
        assert out.item() == 0.0
        for _ in range(2):
            autotune_cpu.next_forward(checked=True)  # the second: picked, not benchmarked
            out = torch.zeros(1)
            sum_reset_kernel[grid](x, out, 1000)
            assert torch.allclose(out, x.sum(), atol=1e-3)


@triton.jit
def _relu_counted(x_ptr, out_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
    if tl.program_id(0) == 0:
        tl.atomic_add(cnt_ptr, 1)


counted_kernel = triton.autotune(configs=_sum_configs(), key=["n"])(_relu_counted)


@needs_interpreter
def test_a_benchmarked_kernel_that_counts_its_runs_is_refused(hooks):
    """Red team rt25: a kernel bumping a counter the file keeps between forwards (not an
    output, not reset) saw one run per config on the CPU and hundreds on a GPU, and switched
    on the count. A config run again on what its last run left must leave every tensor as
    that run did: the counter does not, and the launch is refused naming it."""
    from evaluator.autotune_cpu import KernelRunsDisagree

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        _fresh(autotune_cpu, counted_kernel)
        autotune_cpu.next_forward(checked=True)
        out, cnt = torch.zeros(1000), torch.zeros(1, dtype=torch.int32)
        with pytest.raises(KernelRunsDisagree, match="argument `cnt_ptr`"):
            counted_kernel[grid](x, out, cnt, 1000)
        assert cnt.item() == 0 and not out.any()


def _zero_out(nargs):
    nargs["out_ptr"].zero_()


@triton.jit
def _sum_split(x_ptr, out_ptr, part_ptr, n, BLOCK: tl.constexpr):
    """Each program's partial into a workspace written whole, then atomically into the output:
    the float atomics land in the schedule's order, drawn per launch."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    tl.store(part_ptr + tl.program_id(0), part)
    tl.atomic_add(out_ptr, part)


_split_configs = [triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})]
split_reset_kernel = triton.autotune(configs=_split_configs, key=["n"], reset_to_zero=["out_ptr"])(_sum_split)
split_hook_kernel = triton.autotune(configs=[triton.Config(c.kwargs, pre_hook=_zero_out) for c in _split_configs],
                                    key=["n"])(_sum_split)


@triton.jit
def _double_in_place(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 2 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


double_kernel = triton.autotune(configs=_sum_configs(), key=["n"], restore_value=["x_ptr"])(_double_in_place)


@triton.jit
def _row_sums_of_cat(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """A sum over tl.cat, whose order the GPU's layouts decide (drawn here: interpreter_layout)."""
    row = tl.program_id(0)
    a = tl.load(x_ptr + row * 2 * BLOCK + tl.arange(0, BLOCK))
    b = tl.load(x_ptr + row * 2 * BLOCK + BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + row, tl.sum(tl.cat(a, b, can_reorder=True), axis=0))


cat_sum_kernel = triton.autotune(configs=[triton.Config({}, num_warps=2), triton.Config({}, num_warps=4)],
                                 key=["BLOCK"])(_row_sums_of_cat)


@needs_interpreter
def test_honest_benchmarked_kernels_repeat_themselves(hooks):
    """What an honest autotuned kernel writes comes out of a second run as out of the first:
    a workspace written whole, a float atomic sum into an output the autotuner's
    reset_to_zero or the config's pre_hook zeroes (split-K's shape; the second run takes the
    first's draws, so its atomics land in the same order: evaluator.interpreter_draws), a
    tensor updated in place and named in restore_value, a sum over a reorderable tl.cat."""
    x = torch.randn(2000) * torch.logspace(-4, 4, 2000)[torch.randperm(2000)]  # order-sensitive sums
    with _autotune_emulated() as autotune_cpu:
        for _ in range(4):  # fresh processes: a new order and new draws each
            _fresh(autotune_cpu, split_reset_kernel, split_hook_kernel, double_kernel)
            autotune_cpu.next_forward(checked=True)
            for kernel in (split_reset_kernel, split_hook_kernel):
                out, part = torch.zeros(1), torch.zeros(64)
                kernel[lambda meta: (triton.cdiv(2000, meta["BLOCK"]),)](x, out, part, 2000)
                assert abs(out.item() - x.double().sum().item()) < 1e-5 * x.abs().sum().item()
            y = x.clone()
            double_kernel[lambda meta: (triton.cdiv(2000, meta["BLOCK"]),)](y, 2000)
            assert torch.equal(y, 2 * x)
            rows, sums = torch.randn(15, 128), torch.zeros(15)
            cat_sum_kernel[(15,)](rows, sums, BLOCK=64)
            assert torch.allclose(sums, rows.sum(1), atol=1e-4)


@triton.jit
def _relu_marking(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr, MARK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0), mask=offs < n)
    if MARK:
        tl.store(flag_ptr, 1)


marking_kernel = triton.autotune(configs=[triton.Config({"BLOCK": 64, "MARK": False}),
                                          triton.Config({"BLOCK": 128, "MARK": True})], key=["n"])(_relu_marking)


@needs_interpreter
def test_the_benchmark_leaves_what_every_config_left(hooks):
    """On a GPU the configs run one after another on the same tensors, nothing put back
    between them: a flag one config sets stays set whichever config the GPU keeps. Here too,
    whichever config the CPU picks (the CPU once left only the picked config's writes)."""
    x = torch.randn(1000)
    with _autotune_emulated() as autotune_cpu:
        for _ in range(6):  # fresh processes: either config picked
            _fresh(autotune_cpu, marking_kernel)
            autotune_cpu.next_forward(checked=True)
            out, flag = torch.zeros(1000), torch.zeros(1, dtype=torch.int32)
            marking_kernel[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, flag, 1000)
            assert flag.item() == 1 and torch.equal(out, x.relu())


@triton.jit
def _relu_through_descriptor(x_ptr, out_desc, n, BLOCK: tl.constexpr, HALF: tl.constexpr):
    pid = tl.program_id(0)
    if (HALF == 0) or (pid % 2 == 0):
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        out_desc.store([pid * BLOCK], tl.maximum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), 0.0))


descriptor_kernel = triton.autotune(configs=[triton.Config({"BLOCK": 64, "HALF": 0}),
                                             triton.Config({"BLOCK": 64, "HALF": 1}, num_warps=8)],
                                    key=["n"])(_relu_through_descriptor)


@needs_interpreter
def test_outputs_written_through_a_descriptor_are_compared(hooks):
    """Red team rt25: the benchmark copied, compared and put back the launch's tensors and
    those in tuples and lists, never a host TensorDescriptor's base, so a config writing half
    the output through one was never noted as writing otherwise (never pinned). It is now,
    whichever config the CPU picks: where it picks the half one, its launch there ran on what
    the honest config wrote (right, as in a GPU's first forward), and it is noted itself, to
    run alone in a later forward."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.randn(1024)
    with _autotune_emulated() as autotune_cpu:
        for _ in range(6):  # fresh processes: either config picked
            _fresh(autotune_cpu, descriptor_kernel)
            autotune_cpu._PENDING.clear()
            autotune_cpu.next_forward(checked=True)
            out = torch.zeros(1024)
            desc = TensorDescriptor(out, [1024], [1], [64])
            descriptor_kernel[lambda meta: (triton.cdiv(1024, meta["BLOCK"]),)](x, desc, 1024)
            assert torch.equal(out, x.relu())  # the half config picked or not
            noted = [(p["config"].kwargs["HALF"], p["chosen"].kwargs["HALF"]) for p in autotune_cpu._PENDING
                     if p["tuner"] is descriptor_kernel]
            picked = descriptor_kernel.best_config.kwargs["HALF"]
            assert sorted(noted) == ([(0, 1), (1, 1)] if picked else [(1, 0)])


@triton.jit
def _relu_clamped(x_ptr, out_ptr, n, BLOCK: tl.constexpr, CLAMP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0)
    if CLAMP:
        y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y, mask=offs < n)


clamped_kernel = triton.autotune(configs=[triton.Config({"BLOCK": b, "CLAMP": c}) for b, c in
                                          ((64, 0), (128, 0), (256, 0), (64, 1))], key=["n"])(_relu_clamped)


@needs_interpreter
def test_every_config_meets_every_trial_transform(hooks):
    """Red team rt48: a config right on randn (the first pick's inputs, where every config's
    writes are compared) and wrong on large inputs ran on those only where the rotation put
    it. Before a trial of a transform a config has not met, it runs pinned (the keys' configs
    together), the trial's own pick aside; a later trial of a met transform pins nothing."""
    from evaluator import autotune_pins

    x = torch.randn(1000)
    grid = lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)  # noqa: E731
    with _autotune_emulated() as autotune_cpu:
        autotune_cpu._ORDER.clear()  # the only autotuner, as in a candidate's process
        _fresh(autotune_cpu, clamped_kernel)
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("base")
        assert autotune_pins.cover() == []  # no key known yet: its first pick compares them
        clamped_kernel[grid](x, torch.empty(1000), 1000)  # the benchmark: all four agree on randn
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("base")
        assert autotune_pins.cover() == []
        clamped_kernel[grid](x, torch.empty(1000), 1000)
        autotune_cpu.next_forward(checked=True)
        autotune_pins.trial("scale:1e3")
        pins = autotune_pins.cover()
        state = next(iter(autotune_cpu._ORDER[clamped_kernel].values()))
        picks = autotune_cpu.coming(state)
        assert sorted(p["config"].kwargs["BLOCK"] * 2 + p["config"].kwargs["CLAMP"] for p in pins) == sorted(
            c.kwargs["BLOCK"] * 2 + c.kwargs["CLAMP"] for n, c in state.named.items() if n != picks)
        assert all(len(p["cover"]) == 1 and p["transform"] == "scale:1e3" for p in pins)
        big = x * 1e3
        outs = []
        for pin in pins:
            with autotune_pins.pinned(pin):
                out = torch.empty(1000)
                clamped_kernel[grid](big, out, 1000)
                outs.append((pin["config"].kwargs["CLAMP"], out))
            assert pin["used"]
        clamped_kernel[grid](big, out := torch.empty(1000), 1000)  # the trial's own pick
        assert autotune_pins.cover() == []  # all four met x1e3 now
        if state.named[picks].kwargs["CLAMP"]:  # the trial runs it: the worker holds it to the reference
            assert not torch.equal(out, big.relu())
            return
        for clamp, again in outs:
            pin = next(p for p in pins if p["config"].kwargs["CLAMP"] == clamp)
            if clamp:
                with pytest.raises(autotune_pins.KernelConfigsDisagree, match="scale:1e3"):
                    autotune_pins.held(pin, [again], [], [big.relu()], [])
            else:
                autotune_pins.held(pin, [again], [], [big.relu()], [])


def test_a_launchs_tensors_are_walked_once_for_every_use():
    """One walk names every tensor a launch hands its kernel (the memory guard, provenance, the
    autotune benchmark): in tuples, lists and constexprs, a host descriptor's base."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    from evaluator.interpreter_guard import handed_leaves, handed_tensors

    x, y, out = torch.randn(8), torch.randn(8), torch.zeros(64)
    desc = TensorDescriptor(out, [64], [1], [16])
    value = (x, [y, tl.constexpr(desc)], 3)
    assert [(w, t) for w, t in handed_leaves(value, "a")] == [("a[0]", x), ("a[1][0]", y), ("a[1][1].base", out)]
    assert list(handed_tensors(value)) == [x, y, out]
