"""What the CPU interpreter's one-program-at-a-time run must not decide differently from a GPU
(session 31): a tl.range loop variable is the GPU's scalar tensor (evaluator.interpreter_loops),
and a write-write race between the programs of one launch is refused (evaluator.interpreter_races)
while honest cross-program patterns (identical values, atomics, a spin lock, the last block's
ticket) are not.

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
from conftest import candidate_child_hooks, launch_outcomes
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


def _outcomes(run, right, times: int = 12) -> set[str]:
    return set(launch_outcomes(run, right, times))


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
    # a comparison is the GPU's i1, which `and`/`or` treat as a Triton value (every operand runs)
    assert isinstance(k < 3, LoopIndex) and (k < 3).dtype == tl.int1 and (k < 3) == 1
    assert list(reversed(device_range(3))) == [2, 1, 0] and len(device_range(0, 10, 4)) == 3
    assert device_range(0, 2 ** 33)[0].dtype == tl.int64


# ---------------------------------------------------------------------- write-write races
@triton.jit
def racy_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    tl.store(out_ptr, tl.load(out_ptr) + part)


@triton.jit
def same_value_kernel(x_ptr, out_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    # every program writes the same flag and the same count: benign on a GPU
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
    tl.store(flag_ptr, 1)
    tl.store(flag_ptr + 1 + tl.arange(0, 2), tl.full((2,), n, tl.int32))


@triton.jit
def atomic_kernel(x_ptr, out_ptr, last_ptr, n, BLOCK: tl.constexpr, SAME: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    tl.atomic_max(out_ptr, tl.max(x, axis=0))
    if SAME:
        tl.atomic_xchg(last_ptr, 1)  # a flag every program raises: the same value
    else:
        tl.atomic_xchg(last_ptr, tl.program_id(0))  # what is left depends on the GPU's schedule


@triton.jit
def exchanged_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, WIDTH: tl.constexpr):
    """Red team s31c: a shared accumulator's load + add written back by an atomic exchange, or
    by a store of another width over the same bytes, loses updates on a GPU as a plain
    store does."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    total = tl.load(out_ptr) + part
    if WIDTH == 0:  # the interpreter exchanges integers only: the float's bits
        tl.atomic_xchg(out_ptr.to(tl.pointer_type(tl.int32)), total.to(tl.int32, bitcast=True))
    elif WIDTH == 4:
        tl.store(out_ptr, total)
    else:  # the total's two 16-bit halves, through an int16 view of the same bytes
        bits = total.to(tl.int32, bitcast=True)
        half_ptr = out_ptr.to(tl.pointer_type(tl.int16))
        tl.store(half_ptr, (bits & 0xFFFF).to(tl.int16))
        tl.store(half_ptr + 1, (bits >> 16).to(tl.int16))


@triton.jit
def locked_sum_kernel(x_ptr, out_ptr, lock_ptr, n, BLOCK: tl.constexpr, LOCKED: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    if LOCKED == 1:
        while tl.atomic_cas(lock_ptr, 0, 1) == 1:
            pass
    if LOCKED == 2:  # a one-shot CAS: no loop retries it (on a GPU a loser goes on unlocked)
        tl.atomic_cas(lock_ptr, 0, 1)
    if LOCKED == 3:  # the CAS's result bound to a name a loop tests
        taken = tl.atomic_cas(lock_ptr, 0, 1)
        while taken == 1:
            taken = tl.atomic_cas(lock_ptr, 0, 1)
    if LOCKED == 4:  # a while that never retries: a CAS returns 0 or 1, never 2
        while tl.atomic_cas(lock_ptr, 0, 1) == 2:
            pass
    tl.store(out_ptr, tl.load(out_ptr) + part)
    if LOCKED:
        tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def read_then_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, DIFFERENCE: tl.constexpr):
    """Red team s31d: an atomic add of a difference with a plain load of the shared word is a
    lost update on a GPU; a stale read before an atomic max (to skip it) is an honest skip."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.max(tl.load(x_ptr + offs, mask=offs < n, other=float("-inf")), axis=0)
    cur = tl.load(out_ptr)
    if DIFFERENCE:
        tl.atomic_add(out_ptr, tl.maximum(cur, part) - cur)
    elif part > cur:
        tl.atomic_max(out_ptr, part)


@triton.jit
def ticket_kernel(x_ptr, partial_ptr, counter_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # CUDA's threadFenceReduction: the program that draws the last ticket sums the partials
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(partial_ptr + pid, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))
    ticket = tl.atomic_add(counter_ptr, 1)
    if ticket == tl.num_programs(0) - 1:
        idx = tl.arange(0, 16)
        total = tl.sum(tl.load(partial_ptr + idx, mask=idx < tl.num_programs(0), other=0.0), axis=0)
        tl.store(out_ptr, total)


@needs_interpreter
def test_a_racy_accumulate_is_refused():
    """Programs adding into one float with tl.load + tl.store: exact one program at a time, lost
    updates on a GPU (red team s31). Refused, with what to do instead."""
    from evaluator.interpreter_races import KernelRaceError

    # whole numbers: every order of adding them gives the same float, so the sums below are exact
    x = torch.randint(-64, 64, (1000,)).float()
    with pytest.raises(Exception) as caught:
        racy_sum_kernel[(4,)](x, torch.zeros(1), x.numel(), BLOCK=256)
    race = _cause(caught.value)
    assert isinstance(race, KernelRaceError), repr(caught.value)
    assert "tl.atomic_add" in str(race) and "second launch" in str(race)
    # one program alone is no race; and the next launch starts with no owners
    out = torch.zeros(1)
    racy_sum_kernel[(1,)](x, out, 256, BLOCK=256)
    racy_sum_kernel[(1,)](x, out, 256, BLOCK=256)
    assert torch.equal(out, (2 * x[:256].sum()).reshape(1))


@needs_interpreter
def test_the_same_value_from_many_programs_is_not_a_race():
    x = torch.randn(1000)
    out, flag = torch.empty_like(x), torch.zeros(3, dtype=torch.int32)
    same_value_kernel[(4,)](x, out, flag, x.numel(), BLOCK=256)
    assert torch.equal(out, x * 2) and flag.tolist() == [1, 1000, 1000]
    nan = torch.full((4,), float("nan"))  # the same NaN, bit for bit, is the same value
    same_value_kernel[(4,)](nan, torch.empty(4), flag, 4, BLOCK=1)


@needs_interpreter
def test_atomics_a_spin_lock_and_a_ticket_are_not_races():
    from evaluator.interpreter_races import KernelRaceError

    x = torch.randn(1000)
    out = torch.full((1,), float("-inf"))
    atomic_kernel[(4,)](x, out, torch.zeros(1, dtype=torch.int32), x.numel(), BLOCK=256, SAME=True)
    assert out[0] == x.max()
    with pytest.raises(Exception) as caught:  # an exchange overwrites: a race as a store is
        atomic_kernel[(4,)](x, out, torch.zeros(1, dtype=torch.int32), x.numel(), BLOCK=256, SAME=False)
    assert isinstance(_cause(caught.value), KernelRaceError)
    for width in (0, 4, 2):  # an exchange, a store, a store of the same bytes in halves
        with pytest.raises(Exception) as caught:
            exchanged_sum_kernel[(4,)](x, torch.zeros(1), x.numel(), BLOCK=256, WIDTH=width)
        assert isinstance(_cause(caught.value), KernelRaceError), width

    out, lock = torch.zeros(1), torch.zeros(1, dtype=torch.int32)
    locked_sum_kernel[(4,)](x, out, lock, x.numel(), BLOCK=256, LOCKED=1)
    assert torch.allclose(out, x.sum(), atol=1e-4) and lock.item() == 0
    out = torch.zeros(1)
    locked_sum_kernel[(4,)](x, out, lock, x.numel(), BLOCK=256, LOCKED=3)
    assert torch.allclose(out, x.sum(), atol=1e-4) and lock.item() == 0
    for unlocked in (0, 2, 4):  # without its lock, or with a CAS nothing retries, it races
        with pytest.raises(Exception) as caught:
            locked_sum_kernel[(4,)](x, torch.zeros(1), lock, x.numel(), BLOCK=256, LOCKED=unlocked)
        assert isinstance(_cause(caught.value), KernelRaceError), unlocked
        lock.zero_()

    partial, counter, out = torch.empty(4), torch.zeros(1, dtype=torch.int32), torch.empty(())
    ticket_kernel[(4,)](x, partial, counter, out, x.numel(), BLOCK=256)
    assert torch.allclose(out, x.sum(), atol=1e-4)

    out = torch.full((1,), float("-inf"))
    read_then_atomic_kernel[(4,)](x, out, x.numel(), BLOCK=256, DIFFERENCE=False)
    assert out[0] == x.max()
    rising = torch.sort(x).values  # every block's max above the last: each difference is an update

    def difference():
        out = torch.zeros(1)
        read_then_atomic_kernel[(4,)](rising, out, x.numel(), BLOCK=256, DIFFERENCE=True)
        return out
    # (an add of 0 is a read: s32b's atomic_add(p, 0.0)); the order that starts with the largest
    # block is right, on a GPU too: the others' differences are 0
    assert _outcomes(difference, lambda out: out[0] == rising.max()) - {"right"}


@triton.jit
def cas_kernel(x_ptr, acc_ptr, flag_ptr, first_ptr, n, BLOCK: tl.constexpr, ACCUMULATE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    if ACCUMULATE:  # red team s32a: a one-shot CAS of cur + part, its result never tested
        cur = tl.load(acc_ptr)
        tl.atomic_cas(acc_ptr, cur, (cur.to(tl.float32, bitcast=True) + part).to(tl.int32, bitcast=True))
    elif tl.atomic_cas(flag_ptr, 0, 1) == 0:  # an election: the first program to arrive wins
        tl.store(first_ptr, pid)


@needs_interpreter
def test_a_one_shot_compare_and_swap_is_a_store_that_races():
    """Programs summing by a CAS no loop retries: each CAS succeeds one program at a time; on
    a GPU the losers drop their parts. Judged as a store, it races. A CAS that elects one
    program (the others find the flag taken and swap nothing) is no race."""

    x = torch.randn(1000)
    flag, first = torch.zeros(1, dtype=torch.int32), torch.full((1,), -1, dtype=torch.int32)

    def accumulate():
        acc = torch.zeros(1, dtype=torch.int32)
        cas_kernel[(4,)](x, acc, flag, first, x.numel(), BLOCK=256, ACCUMULATE=True)
        return acc.view(torch.float32)
    # interleaved, a CAS whose compared value went stale swaps nothing (the part is dropped, as
    # on a GPU); one that swaps over another program's unordered write is refused as a store
    seen = _outcomes(accumulate, lambda acc: torch.allclose(acc, x.sum(), atol=1e-4))
    assert seen - {"right"}, seen
    cas_kernel[(4,)](x, torch.zeros(1, dtype=torch.int32), flag, first, x.numel(), BLOCK=256, ACCUMULATE=False)
    assert flag.item() == 1 and 0 <= first.item() < 4  # whichever program's CAS came first


@triton.jit
def one_address_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, SAME: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if SAME:  # a broadcast total from every lane: one value
        tl.store(out_ptr + 0 * offs, tl.zeros_like(x) + tl.sum(x, axis=0))
    else:  # red team s32a: the running sums from every lane, the last lane's (the total) kept here
        tl.store(out_ptr + 0 * offs, tl.cumsum(x, axis=0))


@needs_interpreter
def test_lanes_storing_different_values_to_one_address_race():
    from evaluator.interpreter_races import KernelRaceError

    x, out = torch.randn(64), torch.zeros(1)
    one_address_kernel[(1,)](x, out, BLOCK=64, SAME=True)
    assert torch.allclose(out, x.sum(), atol=1e-5)
    with pytest.raises(Exception) as caught:
        one_address_kernel[(1,)](x, out, BLOCK=64, SAME=False)
    assert isinstance(_cause(caught.value), KernelRaceError) and "different lanes" in str(_cause(caught.value))


@triton.jit
def try_lock(lock_ptr):
    return tl.atomic_cas(lock_ptr, 0, 1)


@triton.jit
def shared_sum_kernel(x_ptr, acc_ptr, word_ptr, n, BLOCK: tl.constexpr, HOW: tl.constexpr):
    """Red team s32b's ways to a shared sum, each right one program at a time."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    if HOW == 0:  # honest: a spin lock whose CAS sits in a helper the loop retries
        while try_lock(word_ptr) != 0:
            pass
        tl.store(acc_ptr, tl.load(acc_ptr) + part)
        tl.atomic_xchg(word_ptr, 0)
    if HOW == 1:  # a CAS that increments a counter: taken once, never given back, no lock
        ticket = tl.load(word_ptr)
        while tl.atomic_cas(word_ptr, ticket, ticket + 1) != ticket:
            ticket = tl.load(word_ptr)
        tl.store(acc_ptr, tl.load(acc_ptr) + part)
    if HOW == 2:  # honest: a test-and-set lock (honest round s32b: the acquire was judged a store)
        while tl.atomic_xchg(word_ptr, 1) == 1:
            pass
        tl.store(acc_ptr, tl.load(acc_ptr) + part)
        tl.atomic_xchg(word_ptr, 0)
    if HOW == 3:  # honest: a tile whose partial is 0 (a ReLU'd input), then one that is not
        tl.atomic_add(acc_ptr, part * 0.0)
        tl.atomic_add(acc_ptr, part)
    if HOW == 5:  # honest: a float added by a CAS loop from 0 (the word is data, not a lock)
        bits_ptr = acc_ptr.to(tl.pointer_type(tl.int32), bitcast=True)
        old = tl.load(bits_ptr)
        prev = tl.atomic_cas(bits_ptr, old, (old.to(tl.float32, bitcast=True) + part).to(tl.int32, bitcast=True))
        while prev != old:
            old = prev
            prev = tl.atomic_cas(bits_ptr, old, (old.to(tl.float32, bitcast=True) + part).to(tl.int32, bitcast=True))
    if HOW == 6:  # red team s32d: waiters break the lock by an atomic and, and go in
        while tl.atomic_cas(word_ptr, 0, 1) != 0:
            tl.atomic_and(word_ptr, 0)
        tl.store(acc_ptr, tl.load(acc_ptr) + part)
        tl.atomic_xchg(word_ptr, 0)
    if HOW == 7:  # red team s32d: a lost-update sum written by an exchange a while tests
        bits = (tl.load(acc_ptr) + part).to(tl.int32, bitcast=True)
        while tl.atomic_xchg(acc_ptr.to(tl.pointer_type(tl.int32), bitcast=True), bits) == bits:
            pass
    if HOW == 4:  # each program's own lock (a word of its own) around the same lost update
        while tl.atomic_cas(word_ptr + pid, 0, 1) != 0:
            pass
        cur = tl.load(acc_ptr)
        tl.atomic_add(acc_ptr, tl.maximum(cur, part) - cur)
        tl.atomic_xchg(word_ptr + pid, 0)


@needs_interpreter
def test_locks_are_told_by_what_they_do():
    """Red teams s32b/c: a lock is a CAS (or a test-and-set exchange) from 0 that its holder gives
    back; a CAS-increment of a counter is none, and a lock excuses only what was written under
    it. An add of 0 writes nothing (s32c: an honest tile whose partial
    was 0 was refused when an add of 0 counted as a read)."""

    x = torch.randn(1000)
    for how in (0, 2, 3, 5):
        acc, word = torch.zeros(1), torch.zeros(8, dtype=torch.int32)
        shared_sum_kernel[(4,)](x, acc, word, x.numel(), BLOCK=256, HOW=how)
        assert torch.allclose(acc, x.sum(), atol=1e-4) and word[0].item() == 0
    rising = torch.linspace(0.1, 1.0, 1000)  # each block's sum above the last: every difference updates
    word = torch.zeros(8, dtype=torch.int32)
    for how in (1, 4, 6, 7):
        def shared(how=how):
            acc, word = torch.zeros(1), torch.zeros(8, dtype=torch.int32)
            shared_sum_kernel[(4,)](rising, acc, word, x.numel(), BLOCK=256, HOW=how)
            return acc
        # refused, or wrong in some order (one order can be right: HOW 4 with every load first)
        assert _outcomes(shared, lambda acc: torch.allclose(acc, rising.sum(), atol=1e-4), 6) - {"right"}, how


@triton.jit
def xchg_lanes_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_xchg(out_ptr.to(tl.pointer_type(tl.int32)) + 0 * offs,
                   tl.cumsum(tl.load(x_ptr + offs), axis=0).to(tl.int32, bitcast=True))


@triton.jit
def dummy_then_data_cas_kernel(x_ptr, acc_ptr, scratch_ptr, n, BLOCK: tl.constexpr):
    # red team s32b: the first pass of the loop CASes a scratch word (the one failure a spin site
    # is given), the second the data word once
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    i = 0
    while i < 2:
        if i == 0:
            tl.atomic_cas(scratch_ptr, 0, 0)
        else:
            cur = tl.load(acc_ptr)
            tl.atomic_cas(acc_ptr, cur, (cur.to(tl.float32, bitcast=True) + part).to(tl.int32, bitcast=True))
        i += 1


@needs_interpreter
def test_exchange_lanes_and_a_contention_used_up_on_another_word_do_not_hide_a_race():
    from evaluator.interpreter_races import KernelRaceError

    x = torch.randn(64)
    with pytest.raises(Exception) as caught:
        xchg_lanes_kernel[(1,)](x, torch.zeros(1), BLOCK=64)
    assert isinstance(_cause(caught.value), KernelRaceError)
    x = torch.rand(1000)
    acc = torch.zeros(1, dtype=torch.int32)
    try:
        dummy_then_data_cas_kernel[(4,)](x, acc, torch.zeros(1, dtype=torch.int32), x.numel(), BLOCK=256)
    except Exception as exc:  # noqa: BLE001  (refused as a race: as good as wrong)
        assert isinstance(_cause(exc), KernelRaceError)
    else:  # each data CAS failed once, as under contention: parts are dropped, as on a GPU
        assert acc.view(torch.float32).item() < x.sum().item() - 1.0
