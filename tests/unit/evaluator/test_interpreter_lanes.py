"""Lanes of one program that hand values to each other through global memory
(evaluator.interpreter_races, "lanes of one program"). The interpreter runs each tl.load and
tl.store on the whole tile at once, so a scan through global memory with no barrier is exact
here; on a GPU the tile is spread over warps that run unsynchronised (red team s33: a
Hillis-Steele scan, ok on the CPU, incorrect on the H200). Refused unless tl.debug_barrier()
(or a scalar atomic whose old value is used: it reaches the lanes behind a barrier) orders them;
reloading what the same lane stored stays accepted.

TRITON_INTERPRET=1 must be set before triton is first imported, so this module runs itself
once more in a child pytest with the variable set (as test_interpreter_schedule does).
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl
from conftest import candidate_child_hooks, root_cause

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(scope="module", autouse=True)
def _guard():
    """What a CPU candidate child installs: the guard, and the launch hook, whose GPU front-end
    check of every launch also says which scalar atomics keep a use of their value."""
    if not INTERPRETED:
        yield
        return
    with candidate_child_hooks():
        yield


def _refused(run, lanes: bool = True) -> bool:
    """Whether the launch was refused as a race (`lanes`: as one between lanes of one program,
    saying what to do); any other error fails."""
    from evaluator.interpreter_races import KernelRaceError

    try:
        run()
    except Exception as exc:  # noqa: BLE001 (only a race refusal is expected)
        cause = root_cause(exc)
        assert isinstance(cause, KernelRaceError), repr(exc)
        assert not lanes or ("lanes of one program" in str(cause) and "tl.debug_barrier()" in str(cause)), cause
        return True
    return False


@triton.jit
def scan_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, LOG: tl.constexpr, BARRIERS: tl.constexpr):
    # Hillis-Steele in place in `out`. BARRIERS: 0 none, 1 after the store only (the next step's
    # loads wait, this step's store does not wait for the loads: write after read), 2 both,
    # 3 both, under a runtime branch never taken
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0), mask=mask)
    d = 1
    for _ in tl.static_range(LOG):
        if BARRIERS >= 1 and BARRIERS != 3:
            tl.debug_barrier()
        if BARRIERS == 3:
            if n < 0:
                tl.debug_barrier()
        a = tl.load(out_ptr + offs, mask=mask, other=0.0)
        b = tl.load(out_ptr + offs - d, mask=mask & (offs >= d), other=0.0)
        if BARRIERS == 2:
            tl.debug_barrier()
        tl.store(out_ptr + offs, a + b, mask=mask)
        d = d * 2


@needs_interpreter
@pytest.mark.parametrize("barriers,refused", [(0, True), (1, True), (3, True), (2, False)])
def test_a_scan_through_global_memory_needs_a_barrier_each_way(barriers, refused):
    x = torch.randn(100)
    out = torch.empty(100)
    assert _refused(lambda: scan_kernel[(1,)](x, out, 100, BLOCK=128, LOG=7, BARRIERS=barriers)) == refused
    if not refused:
        assert torch.allclose(out, x.cumsum(0), atol=1e-4)


@triton.jit
def chunked_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, HOW: tl.constexpr):
    # a row cumsum by chunks. HOW 0: the carry kept in registers; 1: read back as a scalar from
    # the element the chunk's last lane just stored; 2: each chunk stored, then reloaded at the
    # same offsets and shape and fixed up (the same lanes)
    carry = 0.0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        run = tl.cumsum(x, axis=0)
        if HOW == 0:
            tl.store(out_ptr + offs, run + carry, mask=mask)
            carry += tl.sum(x, axis=0)
        elif HOW == 1:
            tl.store(out_ptr + offs, run + carry, mask=mask)
            carry = tl.load(out_ptr + tl.minimum(start + BLOCK, n) - 1)
        else:
            tl.store(out_ptr + offs, run, mask=mask)
            again = tl.load(out_ptr + offs, mask=mask, other=0.0)
            tl.store(out_ptr + offs, again + carry, mask=mask)
            carry += tl.sum(x, axis=0)


@needs_interpreter
@pytest.mark.parametrize("how,refused", [(0, False), (1, True), (2, False)])
def test_only_what_another_lane_stored_is_refused(how, refused):
    x = torch.randn(300)
    out = torch.empty(300)
    assert _refused(lambda: chunked_kernel[(1,)](x, out, 300, BLOCK=64, HOW=how)) == refused
    if not refused:
        assert torch.allclose(out, x.cumsum(0), atol=1e-4)


@triton.jit
def stats_kernel(x_ptr, mean_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, HOW: tl.constexpr):
    # per-row means stored as [ROWS]; HOW 0: reloaded as a [ROWS, 1] column, 1: through a
    # [ROWS // 2, 2] view (both other threads on a GPU: the column form was incorrect on the
    # H200, session 34), 2: as stored, 3: as a column after a barrier
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(x_ptr + r[:, None] * COLS + c[None, :])
    tl.store(mean_ptr + r, tl.sum(x, axis=1) / COLS)
    if HOW == 0:
        m = tl.load(mean_ptr + r[:, None])
    elif HOW == 1:
        pairs = tl.load(mean_ptr + tl.reshape(r, (ROWS // 2, 2)))
        m = tl.reshape(pairs, (ROWS, 1))
    elif HOW == 2:
        m = tl.load(mean_ptr + r)[:, None]
    else:
        tl.debug_barrier()
        m = tl.load(mean_ptr + r[:, None])
    tl.store(out_ptr + r[:, None] * COLS + c[None, :], x - m)


@needs_interpreter
@pytest.mark.parametrize("how,refused", [(0, True), (1, True), (2, False), (3, False)])
def test_a_reload_in_another_shape_is_another_lane(how, refused):
    x = torch.randn(8, 16)
    out, mean = torch.empty(8, 16), torch.empty(8)
    assert _refused(lambda: stats_kernel[(1,)](x, mean, out, ROWS=8, COLS=16, HOW=how)) == refused
    if not refused:
        assert torch.allclose(out, x - x.mean(1, keepdim=True), atol=1e-5)


@triton.jit
def scale_kernel(x_ptr, inv_ptr, out_ptr, n, BLOCK: tl.constexpr, BARRIER: tl.constexpr):
    # 1/norm stored as a scalar, then reloaded as a scalar in the second loop: on a GPU one
    # thread stores it and every thread loads it (incorrect on the H200 without the barrier)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + tl.arange(0, BLOCK), mask=start + tl.arange(0, BLOCK) < n, other=0.0)
        acc += x * x
    tl.store(inv_ptr, 1.0 / tl.sqrt(tl.sum(acc, axis=0)))
    if BARRIER:
        tl.debug_barrier()
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + offs, x * tl.load(inv_ptr), mask=offs < n)


@needs_interpreter
@pytest.mark.parametrize("barrier,refused", [(0, True), (1, False)])
def test_a_scalar_stored_then_reloaded_needs_a_barrier(barrier, refused):
    x = torch.randn(300)
    out, inv = torch.empty(300), torch.empty(())
    assert _refused(lambda: scale_kernel[(1,)](x, inv, out, 300, BLOCK=64, BARRIER=barrier)) == refused
    if not refused:
        assert torch.allclose(out, x / x.norm(), atol=1e-6)


@triton.jit
def _bump(counter_ptr):
    return tl.atomic_add(counter_ptr, 1)


_sync = tl.atomic_add  # red team s35: an alias the source reading did not know


@triton.jit
def scale_after_atomic_kernel(x_ptr, inv_ptr, counter_ptr, out_ptr, n, BLOCK: tl.constexpr, HOW: tl.constexpr):
    # the scalar 1/norm stored, a scalar atomic, the scalar reloaded. Triton gives a scalar
    # atomic a barrier only where its old value is used (atomicNeedsSharedMemory). HOW 0: the
    # atomic as a statement; 1: bound to `_`, never read; 2: its value used; 3: a helper that
    # returns it, called as a statement; 4: that helper's value used; (red team s35, which the
    # source reading took as used) 5: an alias as a statement; 6: `_seen = _t`, never read;
    # 7: `atomic(...) and 0`
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + tl.arange(0, BLOCK), mask=start + tl.arange(0, BLOCK) < n, other=0.0)
        acc += x * x
    tl.store(inv_ptr, 1.0 / tl.sqrt(tl.sum(acc, axis=0)))
    ticket = 0
    if HOW == 0:
        tl.atomic_add(counter_ptr, 1)
    elif HOW == 1:
        _ = tl.atomic_add(counter_ptr, 1)
    elif HOW == 2:
        ticket = tl.atomic_add(counter_ptr, 1)
    elif HOW == 3:
        _bump(counter_ptr)
    elif HOW == 4:
        ticket = _bump(counter_ptr)
    elif HOW == 5:
        _sync(counter_ptr, 1)
    elif HOW == 6:
        _t = tl.atomic_add(counter_ptr, 1)
        _seen = _t  # noqa: F841
    else:
        tl.atomic_add(counter_ptr, 1) and 0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + offs, x * tl.load(inv_ptr) + 0.0 * ticket, mask=offs < n)


@needs_interpreter
@pytest.mark.parametrize("how,refused", [(0, True), (1, True), (2, False), (3, True), (4, False), (5, True),
                                         (6, True), (7, True)])
def test_a_scalar_atomic_orders_the_lanes_only_where_its_value_is_used(how, refused):
    x = torch.randn(300)
    out, inv, counter = torch.empty(300), torch.empty(()), torch.zeros((), dtype=torch.int32)
    assert _refused(lambda: scale_after_atomic_kernel[(1,)](x, inv, counter, out, 300, BLOCK=64, HOW=how)) == refused
    if not refused:
        assert torch.allclose(out, x / x.norm(), atol=1e-6)


@triton.jit
def totals_kernel(x_ptr, tot_ptr, out_ptr, NCH: tl.constexpr, CH: tl.constexpr, OWN: tl.constexpr):
    # every lane of chunk k stores the chunk's total to tot[k] (many lanes, one value); OWN:
    # each lane reloads its own chunk's total (a writer), else the totals of the chunks before
    k = tl.arange(0, NCH)
    c = tl.arange(0, CH)
    x = tl.load(x_ptr + k[:, None] * CH + c[None, :])
    tot = tl.sum(x, axis=1)
    tl.store(tot_ptr + k[:, None] + 0 * c[None, :], tot[:, None] + 0.0 * x)
    if OWN:
        mine = tl.load(tot_ptr + k[:, None] + 0 * c[None, :])
        tl.store(out_ptr + k[:, None] * CH + c[None, :], x / mine)
    else:
        earlier = tl.load(tot_ptr + k[None, :] + 0 * k[:, None], mask=k[None, :] < k[:, None], other=0.0)
        prefix = tl.sum(earlier, axis=1)
        tl.store(out_ptr + k[:, None] * CH + c[None, :], tl.cumsum(x, axis=1) + prefix[:, None])


@needs_interpreter
def test_many_lanes_storing_one_value_excuse_only_their_own_reads():
    x = torch.rand(4, 32) + 0.5
    tot, out = torch.empty(4), torch.empty(4, 32)
    totals_kernel[(1,)](x, tot, out, NCH=4, CH=32, OWN=True)
    assert torch.allclose(out, x / x.sum(1, keepdim=True), atol=1e-5)
    assert _refused(lambda: totals_kernel[(1,)](x, tot, out, NCH=4, CH=32, OWN=False))


@triton.jit
def ticket_sum_kernel(x_ptr, partial_ptr, counter_ptr, out_ptr, BLOCK: tl.constexpr, N: tl.constexpr):
    # CUDA's threadFenceReduction: the last ticket's program reloads every partial, its own too
    # (stored from one lane, reloaded as a tile): the scalar atomic between them orders the lanes
    pid = tl.program_id(0)
    tl.store(partial_ptr + pid, tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0))
    if tl.atomic_add(counter_ptr, 1) == N - 1:
        tl.store(out_ptr, tl.sum(tl.load(partial_ptr + tl.arange(0, N)), axis=0))


@needs_interpreter
def test_a_scalar_atomic_between_the_store_and_the_reload_orders_the_lanes():
    x = torch.randn(8 * 32)
    out = torch.empty(())
    for _ in range(4):  # programs interleave in another order each time
        ticket_sum_kernel[(8,)](x, torch.empty(8), torch.zeros(1, dtype=torch.int32), out, BLOCK=32, N=8)
        assert torch.allclose(out, x.sum(), atol=1e-4)


@triton.jit
def atomic_read_scan_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, LOG: tl.constexpr, HOW: tl.constexpr):
    # the scan read by atomics that change nothing (red team s34). HOW 0: written by atomic adds
    # (an add onto a zeroed row, then adds of the neighbour), no barrier; 1: plain stores, a
    # barrier before the reads only (the store does not wait for the neighbour's read)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if HOW == 0:
        tl.atomic_add(out_ptr + offs, x, mask=mask)
    else:
        tl.store(out_ptr + offs, x, mask=mask)
    d = 1
    for _ in tl.static_range(LOG):
        if HOW == 1:
            tl.debug_barrier()
        b = tl.atomic_add(out_ptr + offs - d, tl.zeros((BLOCK,), tl.float32), mask=mask & (offs >= d))
        b = tl.where(mask & (offs >= d), b, 0.0)
        if HOW == 0:
            tl.atomic_add(out_ptr + offs, b, mask=mask)
        else:
            a = tl.atomic_add(out_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=mask)
            tl.store(out_ptr + offs, a + b, mask=mask)
        d = d * 2


@needs_interpreter
@pytest.mark.parametrize("how", [0, 1])
def test_an_atomic_that_only_reads_is_judged_as_a_load(how):
    x = torch.randn(100)
    out = torch.zeros(100)
    assert _refused(lambda: atomic_read_scan_kernel[(1,)](x, out, 100, BLOCK=128, LOG=7, HOW=how))


@triton.jit
def tile_handoff_kernel(x_ptr, out_ptr, carry_ptr, ready_ptr, C: tl.constexpr, HOW: tl.constexpr):
    # a chained scan over programs: program p hands its running total on as a tile of C equal
    # words written by one multi-lane tl.atomic_xchg (int32 bits), then raises ready[p]. HOW 0:
    # tl.debug_barrier() then a scalar exchange (honest: the barrier gathers the tile's
    # lanes before one thread releases); 1: two releases by a one-lane block atomic, no barrier
    # (red team s34: each lane's exchange is its own thread's; the release carries none of them)
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    carry = 0.0
    if pid > 0:
        while tl.atomic_add(ready_ptr + pid - 1, 0) == 0:
            pass
        carry = tl.load(carry_ptr.to(tl.pointer_type(tl.float32)) + (pid - 1) * C)
    total = carry + x
    tl.store(out_ptr + pid, total)
    c = tl.arange(0, C)
    bits = total.to(tl.int32, bitcast=True)
    tl.atomic_xchg(carry_ptr + pid * C + c, bits + tl.zeros((C,), tl.int32))
    if HOW == 0:
        tl.debug_barrier()
        tl.atomic_xchg(ready_ptr + pid, 1)
    else:
        one = tl.arange(0, 2)
        tl.atomic_add(ready_ptr + pid + 0 * one, tl.full((2,), 1, tl.int32), mask=one == 0)
        tl.atomic_add(ready_ptr + pid + 0 * one, tl.zeros((2,), tl.int32) - 1, mask=one == 0)
        tl.atomic_add(ready_ptr + pid + 0 * one, tl.full((2,), 1, tl.int32), mask=one == 0)


@needs_interpreter
@pytest.mark.parametrize("how,refused", [(0, False), (1, True)])
def test_a_multi_lane_atomic_is_released_only_after_a_barrier(how, refused):
    x = torch.rand(12) + 0.5
    seen = []
    for _ in range(4):  # programs interleave in another order each time
        out = torch.zeros(12)
        carry, ready = torch.zeros(12 * 32, dtype=torch.int32), torch.zeros(12, dtype=torch.int32)
        seen.append(_refused(lambda o=out, c=carry, r=ready: tile_handoff_kernel[(12,)](x, o, c, r, C=32, HOW=how),
                             lanes=False))
        if not seen[-1]:
            assert torch.allclose(out, x.cumsum(0), atol=1e-5)
    assert all(seen) if refused else not any(seen)


@triton.jit
def inplace_grad_kernel(x_ptr, y_ptr, loss_ptr, n, BLOCK: tl.constexpr, HOW: tl.constexpr):
    # Liger-Kernel's cross entropy (honest round s41): the target's logit loaded as a scalar,
    # block-wide reductions over the row, the softmax gradient stored in place over the row,
    # the target's logit among it. HOW 0: the reductions between the scalar load and the
    # store; 1: the scalar loaded after the reductions (nothing between it and the store);
    # 2: a reduction between them whose value nothing uses (the compiler drops it). The row
    # is written once first, behind a barrier (a first pass), so that the launch has stored to
    # it before the scalar load: reads of a tensor the launch has not yet stored to are not
    # recorded (docs/threat_model.md)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
    tl.debug_barrier()
    y = tl.load(y_ptr)
    x_y = 0.0
    if HOW != 1:
        x_y = tl.load(x_ptr + y)
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=0)
    d = tl.sum(tl.exp(x - m), axis=0)
    if HOW == 1:
        x_y = tl.load(x_ptr + y)
    if HOW == 2:
        m = 0.0
        d = 1.0
        x_y = tl.load(x_ptr + y)
        _unused = tl.sum(x, axis=0)  # noqa: F841
    tl.store(x_ptr + offs, tl.exp(x - m) / d, mask=mask)
    tl.store(loss_ptr, tl.log(d) + m - x_y)


@needs_interpreter
@pytest.mark.parametrize("block,warps,how,refused", [
    (1024, 4, 0, False),  # the row spread over 4 warps: the reductions meet in shared memory
    (1024, 1, 0, True),  # one warp: shuffles only, no barrier
    (32, 4, 0, True),  # 32 elements fill one warp's lanes; the other warps hold copies
    (1024, 4, 1, True),  # no reduction between the scalar load and the store
    (1024, 4, 2, True),  # a reduction nothing uses is compiled away with its barrier
])
def test_a_reduction_across_warps_orders_the_lanes(block, warps, how, refused):
    n = min(block, 1000)
    x = torch.randn(n)
    y = torch.tensor(n // 3)
    work, loss = x.clone(), torch.empty(())
    assert _refused(lambda: inplace_grad_kernel[(1,)](work, y, loss, n, BLOCK=block, HOW=how,
                                                      num_warps=warps)) == refused
    if not refused:
        assert torch.allclose(work, x.softmax(0), atol=1e-6)
        assert torch.allclose(loss, torch.nn.functional.cross_entropy(x[None], y[None]), atol=1e-5)


@pytest.mark.parametrize("text,axis,crosses", [
    ("tensor<1024xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [32], "
     "order = [0]}>>", 0, True),
    ("tensor<1024xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], "
     "order = [0]}>>", 0, False),
    # 64 elements, 2 per thread: one warp holds them all, the other three copies
    ("tensor<64xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], "
     "order = [0]}>>", 0, False),
    # rows across warps, a row within one warp: reducing a row stays in its warp
    ("tensor<16x256xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], "
     "warpsPerCTA = [4, 1], order = [1, 0]}>>", 1, False),
    ("tensor<16x256xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], "
     "warpsPerCTA = [4, 1], order = [1, 0]}>>", 0, True),
    # a slice of that layout along its columns: the rows, across the parent's warps
    ("tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], "
     "threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>", 0, True),
    ("tensor<256xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], "
     "threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>", 0, False),
    # an MMA result, a layout this grammar does not read: no barrier credited
    ("tensor<128x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
     "instrShape = [16, 128, 16]}>>", 0, False),
    ("tensor<128xf32>", 0, False),
])
def test_which_layouts_reduce_across_warps(text, axis, crosses):
    from evaluator.device_ir import _crosses_warps

    assert _crosses_warps(text, axis) is crosses


@triton.jit
def hoisted_kernel(x_ptr, w_ptr, y_ptr, out_ptr, n, reps, BLOCK: tl.constexpr, HOW: tl.constexpr):
    # each time round a loop: a block-wide sum of the row (a barrier: last round's store is
    # ordered before this round's reads), the target's element read as a scalar, a block-wide
    # max, the row updated in place. HOW 0: the max of the row as it is now (it stays in the
    # loop, between the read and the store); 1: the max of a tile loaded before the loop, which
    # the compiler hoists out of it (LICM): on the GPU it meets once before the loop, and
    # nothing orders the read before the store
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
    tl.debug_barrier()
    w = tl.load(w_ptr + offs, mask=mask, other=float("-inf"))
    y = tl.load(y_ptr)
    acc = 0.0
    for _ in range(reps):
        row = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
        s = tl.sum(tl.where(mask, row, 0.0), axis=0)
        x_y = tl.load(x_ptr + y)
        if HOW == 0:
            m = tl.max(row, axis=0)
        else:
            m = tl.max(w, axis=0)
        tl.store(x_ptr + offs, row * 0.5 + s - m, mask=mask)
        acc += x_y
    tl.store(out_ptr, acc)


@needs_interpreter
@pytest.mark.parametrize("how,refused", [(0, False), (1, True)])
def test_a_reduction_the_compiler_hoists_out_of_a_loop_orders_nothing_in_it(how, refused):
    x, w = torch.randn(1000), torch.randn(1000)
    work, out = x.clone(), torch.empty(())
    run = lambda: hoisted_kernel[(1,)](work, w, torch.tensor(7), out, 1000, 3, BLOCK=1024, HOW=how,  # noqa: E731
                                       num_warps=4)
    assert _refused(run) == refused
    if not refused:
        want, acc = x.double(), 0.0
        for _ in range(3):
            acc += float(want[7])
            want = want * 0.5 + want.sum() - want.max()
        assert torch.allclose(work.double(), want, rtol=1e-4, atol=1e-3) and abs(float(out) - acc) < 1e-3 * max(1.0, abs(acc))


@triton.jit
def one_line_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, USE: tl.constexpr):
    # the scalar read, then on one line: a sum nothing uses (compiled away), the in-place store,
    # a sum that is used. USE (a specialization): whether the first sum's value is used
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
    tl.debug_barrier()
    x_y = tl.load(x_ptr + tl.load(y_ptr))
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    a = tl.sum(x, axis=0); tl.store(x_ptr + offs, x * 2.0, mask=mask); b = tl.sum(x * x, axis=0)  # noqa: E702
    if USE:
        b += a
    tl.store(out_ptr, x_y + b)


@needs_interpreter
def test_a_reduction_is_a_barrier_only_at_its_own_call_in_its_own_specialization():
    x = torch.randn(1000)
    out = torch.empty(())
    one_line_kernel[(1,)](x.clone(), torch.tensor(5), out, 1000, BLOCK=1024, USE=True, num_warps=4)
    assert torch.allclose(out, x[5] + (x * x).sum() + x.sum(), rtol=1e-4)
    # the first sum's value dropped: the compiler removes it, and the store on its line
    # follows the scalar read with no barrier (the other call on the line is after it)
    assert _refused(lambda: one_line_kernel[(1,)](x.clone(), torch.tensor(5), out, 1000, BLOCK=1024, USE=False,
                                                  num_warps=4))


@triton.jit
def carried_kernel(x_ptr, out_ptr, carry_ptr, n, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    # a running total kept in scratch, reloaded each time round by the lane that stored it
    # (red team s42). STAGES > 1: the pipeliner issues the reload iterations early, before the
    # store it should read (cp.async in the loop's prologue on sm_90): stale on the GPU
    offs = tl.arange(0, BLOCK)
    tl.store(carry_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32))
    for start in tl.range(0, n, BLOCK, num_stages=STAGES):
        mask = start + offs < n
        x = tl.load(x_ptr + start + offs, mask=mask, other=0.0)
        c = tl.load(carry_ptr + offs)
        tl.store(out_ptr + start + offs, tl.cumsum(x, axis=0) + c, mask=mask)
        tl.store(carry_ptr + offs, c + tl.sum(x, axis=0))


@triton.jit
def two_pass_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # pass 1 stores x * 2, pass 2 (another pipelined loop) reloads it: stored before the loop
    # that reloads it started, by the lane that reloads it
    offs = tl.arange(0, BLOCK)
    for start in tl.range(0, n, BLOCK, num_stages=3):
        mask = start + offs < n
        tl.store(out_ptr + start + offs, tl.load(x_ptr + start + offs, mask=mask) * 2.0, mask=mask)
    for start in tl.range(0, n, BLOCK, num_stages=3):
        mask = start + offs < n
        tl.store(out_ptr + start + offs, tl.load(out_ptr + start + offs, mask=mask) + 1.0, mask=mask)


@needs_interpreter
def test_a_pipelined_load_of_what_its_loop_stored_is_refused():
    x = torch.randn(1000)
    out, carry = torch.empty(1000), torch.empty(256)
    carried_kernel[(1,)](x, out, carry, 1000, BLOCK=256, STAGES=1)
    assert torch.allclose(out, x.cumsum(0), atol=1e-4)
    assert _refused(lambda: carried_kernel[(1,)](x, out, carry, 1000, BLOCK=256, STAGES=3), lanes=False)
    two_pass_kernel[(1,)](x, out, 1000, BLOCK=256)
    assert torch.allclose(out, x * 2 + 1)


@triton.jit
def cluster_rows_kernel(x_ptr, out_ptr, scratch_ptr, N: tl.constexpr):
    # a [2, N] tile: each row stored to scratch, a barrier, then each row reloads the other's.
    # With num_ctas=2 the rows lie in two CTAs of a cluster and tl.debug_barrier() (bar.sync)
    # meets only within each (red team s42)
    r = tl.arange(0, 2)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    tl.store(scratch_ptr + r[:, None] * N + c[None, :], x)
    tl.debug_barrier()
    other = tl.load(scratch_ptr + (1 - r)[:, None] * N + c[None, :])
    tl.store(out_ptr + r[:, None] * N + c[None, :], x + other)


@needs_interpreter
@pytest.mark.parametrize("ctas,refused", [(1, False), (2, True)])
def test_a_barrier_meets_only_within_one_cta(ctas, refused):
    x = torch.randn(2, 1024)
    out, scratch = torch.empty(2, 1024), torch.empty(2, 1024)
    assert _refused(lambda: cluster_rows_kernel[(1,)](x, out, scratch, N=1024, num_warps=4, num_ctas=ctas)) == refused
    if not refused:
        assert torch.allclose(out, x + x.flip(0))
