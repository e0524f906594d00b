"""A launch's programs run interleaved on the CPU (evaluator.interpreter_schedule): what is
right only one program at a time comes out wrong in some order, as it does on a GPU, and the
patterns that synchronise programs (a flag, a turn counter, a ticket lock, a wait on a later
program) finish right in every order.

TRITON_INTERPRET=1 must be set before triton is first imported, so, as test_interpreter_launch
does, this module runs itself once more in a child pytest with the variable set.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl
from conftest import launch_outcomes
from conftest import root_cause as _cause

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")
RUNS = 10  # launches per kernel: each draws its own order


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@pytest.fixture(autouse=True)
def _guard():
    if INTERPRETED:
        from evaluator import interpreter_guard
        assert interpreter_guard.install()  # as in every CPU child (the zygote installs it)


def _outcomes(run, right) -> list[str]:
    return launch_outcomes(run, right, RUNS)


# ---------------------------------------------------------------------- right only in launch order
@triton.jit
def flagless_scan_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # red team s32 rtA: each program adds its predecessor's last output, which is there one at a time
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    run = tl.cumsum(tl.load(x_ptr + offs), axis=0)
    carry = 0.0
    if pid > 0:
        carry = tl.load(out_ptr + pid * BLOCK - 1)
    tl.store(out_ptr + offs, run + carry)


@triton.jit
def ticket_offset_kernel(x_ptr, out_ptr, counter_ptr, BLOCK: tl.constexpr):
    # red team s32 rtA: the old value of an atomic_add as the block's place: launch order one at a time
    pid = tl.program_id(0)
    base = tl.atomic_add(counter_ptr, BLOCK)
    tl.store(out_ptr + base + tl.arange(0, BLOCK), tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)))


@triton.jit
def load_then_max_kernel(x_ptr, acc_ptr, BLOCK: tl.constexpr):
    # red team s32 rtA: a running sum by a plain load and an atomic_max of what it read plus the part
    pid = tl.program_id(0)
    part = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    cur = tl.load(acc_ptr)
    tl.atomic_max(acc_ptr, cur + part)


@triton.jit
def two_phase_kernel(x_ptr, part_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    # the first N programs write block sums, the next N read them with no flag: right when the
    # readers start only after every writer is done (a window in launch order, far behind)
    pid = tl.program_id(0)
    if pid < N:
        tl.store(part_ptr + pid, tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0))
    else:
        idx = tl.arange(0, N)
        tl.store(out_ptr + pid - N, tl.sum(tl.load(part_ptr + idx, mask=idx <= pid - N, other=0.0), axis=0))


@needs_interpreter
@pytest.mark.parametrize("kernel", ["flagless_scan", "ticket_offset", "load_then_max", "two_phase"])
def test_what_only_launch_order_makes_right_is_wrong_in_some_order(kernel):
    """Each was right every time while the programs ran one after another (red team s32 rtA,
    the threat model's "not caught" list); interleaved, some orders give another result."""
    n, block = 8 * 32, 32
    x = torch.rand(n) + 0.5  # positive: every running sum rises

    def run():
        if kernel == "flagless_scan":
            out = torch.zeros(n)
            flagless_scan_kernel[(n // block,)](x, out, BLOCK=block)
            return out
        if kernel == "ticket_offset":
            out = torch.zeros(n)
            ticket_offset_kernel[(n // block,)](x, out, torch.zeros(1, dtype=torch.int32), BLOCK=block)
            return out
        if kernel == "two_phase":
            part, out = torch.full((64,), float("nan")), torch.zeros(64)
            two_phase_kernel[(128,)](wide, part, out, N=64, BLOCK=4)
            return out
        acc = torch.zeros(1)
        load_then_max_kernel[(n // block,)](x, acc, BLOCK=block)
        return acc

    wide = torch.rand(64 * 4) + 0.5  # 64 writers then 64 readers: four times the window apart
    want = {"flagless_scan": x.cumsum(0), "ticket_offset": x, "load_then_max": x.sum().reshape(1),
            "two_phase": wide.reshape(64, 4).sum(1).cumsum(0)}[kernel]
    seen = _outcomes(run, lambda out: torch.allclose(out, want, rtol=1e-4))
    assert set(seen) - {"right"}, seen


# ---------------------------------------------------------------------- synchronised: right in every order
@triton.jit
def flagged_scan_kernel(x_ptr, out_ptr, flag_ptr, BLOCK: tl.constexpr):
    # a chained scan: program p waits for p - 1's flag (acquire), then adds its total
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    run = tl.cumsum(tl.load(x_ptr + offs), axis=0)
    carry = 0.0
    if pid > 0:
        while tl.atomic_add(flag_ptr + pid - 1, 0, sem="acquire") == 0:
            pass
        carry = tl.load(out_ptr + pid * BLOCK - 1)
    tl.store(out_ptr + offs, run + carry)
    tl.atomic_xchg(flag_ptr + pid, 1, sem="release")


@triton.jit
def wait_for_later_kernel(x_ptr, out_ptr, flag_ptr, BLOCK: tl.constexpr):
    # program p waits for p + 1 (stream-K's fix-up in the published direction waits on higher ids)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if pid < tl.num_programs(0) - 1:
        while tl.atomic_add(flag_ptr + pid + 1, 0, sem="acquire") == 0:
            pass
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2.0)
    tl.atomic_xchg(flag_ptr + pid, 1, sem="release")


@triton.jit
def ticket_lock_kernel(x_ptr, acc_ptr, next_ptr, serving_ptr, BLOCK: tl.constexpr):
    # a fair ticket lock (honest round s32b, k19: refused while programs ran one at a time)
    pid = tl.program_id(0)
    part = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    ticket = tl.atomic_add(next_ptr, 1)
    while tl.atomic_add(serving_ptr, 0, sem="acquire") != ticket:
        pass
    tl.store(acc_ptr, tl.load(acc_ptr) + part)
    tl.atomic_add(serving_ptr, 1, sem="release")


@triton.jit
def turn_scan_kernel(x_ptr, out_ptr, carry_ptr, turn_ptr, BLOCK: tl.constexpr, HOW: tl.constexpr):
    # a chained scan whose carry (one word every program rewrites) is handed on by a turn counter
    pid = tl.program_id(0)
    run = tl.cumsum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    if HOW == 0:  # acq_rel atomics (the default)
        while tl.atomic_add(turn_ptr, 0) != pid:
            pass
    elif HOW == 1:  # tl.atomic_load with acquire
        while tl.atomic_load(turn_ptr, sem="acquire") != pid:
            pass
    else:  # relaxed: on a GPU the carry may be read before the last program's store shows
        while tl.atomic_add(turn_ptr, 0, sem="relaxed") != pid:
            pass
    carry = tl.load(carry_ptr)
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), run + carry)
    tl.store(carry_ptr, carry + tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0))
    if HOW == 0:
        tl.atomic_xchg(turn_ptr, pid + 1)
    elif HOW == 1:
        tl.atomic_store(turn_ptr, pid + 1, sem="release")
    else:
        tl.atomic_xchg(turn_ptr, pid + 1, sem="relaxed")


@needs_interpreter
def test_a_turn_counter_orders_the_carry_unless_it_is_relaxed():
    """The carry word is rewritten by every program, in turn: ordered by an acq_rel counter or
    by tl.atomic_load/tl.atomic_store (plain loads and stores to the interpreter's native
    module), it is right; with relaxed atomics it is refused (a GPU may show a stale carry)."""
    from evaluator.interpreter_races import KernelRaceError

    n, block = 10 * 8, 8
    x = torch.rand(n)

    def run(how):
        out, carry, turn = torch.zeros(n), torch.zeros(1), torch.zeros(1, dtype=torch.int32)
        turn_scan_kernel[(n // block,)](x, out, carry, turn, BLOCK=block, HOW=how)
        return out

    for how in (0, 1):
        assert torch.allclose(run(how), x.cumsum(0), rtol=1e-4), how
    with pytest.raises(Exception) as caught:
        run(2)
    assert isinstance(_cause(caught.value), KernelRaceError)


@needs_interpreter
@pytest.mark.parametrize("kernel", ["flagged_scan", "wait_for_later", "ticket_lock"])
def test_programs_that_wait_for_each_other_are_right_in_every_order(kernel):
    n, block = 12 * 16, 16  # 12 programs: more than the window in flight at first
    x = torch.rand(n)

    def run():
        flags = torch.zeros(n // block, dtype=torch.int32)
        if kernel == "flagged_scan":
            out = torch.zeros(n)
            flagged_scan_kernel[(n // block,)](x, out, flags, BLOCK=block)
        elif kernel == "wait_for_later":
            out = torch.zeros(n)
            wait_for_later_kernel[(n // block,)](x, out, flags, BLOCK=block)
        else:
            out = torch.zeros(1)
            ticket_lock_kernel[(n // block,)](x, out, flags, flags[1:], BLOCK=block)
        return out

    want = {"flagged_scan": x.cumsum(0), "wait_for_later": x * 2, "ticket_lock": x.sum().reshape(1)}[kernel]
    assert _outcomes(run, lambda out: torch.allclose(out, want, rtol=1e-4, atol=1e-5)) == ["right"] * RUNS


@triton.jit
def store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.jit
def failing_kernel(x_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.load(x_ptr + tl.arange(0, BLOCK))
    if pid == 5:
        tl.load(x_ptr + (1 << 30))  # outside every argument: the guard refuses it
    tl.load(x_ptr + tl.arange(0, BLOCK))


@needs_interpreter
def test_a_failing_program_stops_the_launch_and_the_next_launch_runs():
    """One program's error ends the launch with that error (the others, waiting mid-kernel, are
    unwound); the next launch starts clean, and a 3-d grid's programs each run once."""
    from evaluator.interpreter_guard import KernelMemoryError

    x = torch.rand(64)
    with pytest.raises(Exception) as caught:
        failing_kernel[(12,)](x, BLOCK=16)
    assert isinstance(_cause(caught.value), KernelMemoryError)
    out = torch.zeros(1000)
    store_kernel[(triton.cdiv(1000, 64),)](torch.arange(1000.0), out, 1000, BLOCK=64)
    assert torch.equal(out, torch.arange(1000.0) + 1)

    @triton.jit
    def grid3_kernel(out_ptr):
        i = tl.program_id(0) * 12 + tl.program_id(1) * 4 + tl.program_id(2)
        tl.atomic_add(out_ptr + i, 1)

    counts = torch.zeros(36, dtype=torch.int32)
    grid3_kernel[(3, 3, 4)](counts)
    assert counts.tolist() == [1] * 36


# ---------------------------------------------------------------------- red team s33
@triton.jit
def staggered_sum_kernel(x_ptr, acc_ptr, sync_ptr, BLOCK: tl.constexpr, DELAY: tl.constexpr):
    # red team s33 (E): program i makes 64 i dead loads first (a GPU's compiler deletes them), which
    # put programs in launch order again while every program took turns at each access; an add of
    # 0 before and after the plain read-modify-write made each store look ordered after the last
    pid = tl.program_id(0)
    part = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    for _ in range(pid * DELAY):
        tl.load(x_ptr)
    tl.atomic_add(sync_ptr, 0)
    tl.store(acc_ptr, tl.load(acc_ptr) + part)
    tl.atomic_add(sync_ptr, 0)


@triton.jit
def plain_flag_scan_kernel(x_ptr, out_ptr, flag_ptr, BLOCK: tl.constexpr):
    # red team s33 (B): a chained scan whose flags are plain stores polled by plain loads (a GPU
    # may hoist the poll, or show the flag before the data)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    run = tl.cumsum(tl.load(x_ptr + offs), axis=0)
    carry = 0.0
    if pid > 0:
        while tl.load(flag_ptr + pid - 1) == 0:
            pass
        carry = tl.load(out_ptr + pid * BLOCK - 1)
    tl.store(out_ptr + offs, run + carry)
    tl.store(flag_ptr + pid, 1)


@triton.jit
def relaxed_lock_kernel(x_ptr, acc_ptr, lock_ptr, BLOCK: tl.constexpr, SEM: tl.constexpr):
    # red team s33 (C): tutorial 05's spin lock, relaxed: the next holder may read a stale sum
    pid = tl.program_id(0)
    part = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1, sem=SEM) == 1:
        pass
    tl.store(acc_ptr, tl.load(acc_ptr) + part)
    tl.atomic_xchg(lock_ptr, 0, sem=SEM)


@triton.jit
def cta_scope_sum_kernel(x_ptr, acc_ptr, BLOCK: tl.constexpr):
    # red team s32b (y): an atomic of one program's scope adding into a sum all programs share
    pid = tl.program_id(0)
    tl.atomic_add(acc_ptr, tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0), scope="cta")


@needs_interpreter
@pytest.mark.parametrize("kernel", ["staggered_sum", "plain_flag_scan", "relaxed_lock", "cta_scope_sum"])
def test_red_team_s33_races_are_refused_or_wrong(kernel):
    """Programs drawn at unequal rates (a stagger by dead loads holds in no draw), an atomic that
    changes nothing releases nothing, a plain load of another program's plain store needs an
    atomic ordering it first, relaxed atomics and cta scope order nothing."""
    n, block = 10 * 16, 16
    x = torch.rand(n)

    def run():
        if kernel == "staggered_sum":
            acc = torch.zeros(1)
            staggered_sum_kernel[(n // block,)](x, acc, torch.zeros(1, dtype=torch.int32), BLOCK=block, DELAY=8)
            return acc
        if kernel == "plain_flag_scan":
            out = torch.zeros(n)
            plain_flag_scan_kernel[(n // block,)](x, out, torch.zeros(n // block, dtype=torch.int32), BLOCK=block)
            return out
        acc = torch.zeros(1)
        if kernel == "relaxed_lock":
            relaxed_lock_kernel[(n // block,)](x, acc, torch.zeros(1, dtype=torch.int32), BLOCK=block, SEM="relaxed")
        else:
            cta_scope_sum_kernel[(n // block,)](x, acc, BLOCK=block)
        return acc

    want = x.cumsum(0) if kernel == "plain_flag_scan" else x.sum().reshape(1)
    seen = _outcomes(run, lambda out: torch.allclose(out, want, rtol=1e-4))
    assert set(seen) - {"right"}, seen
    if kernel == "relaxed_lock":  # the same lock with acq_rel (the default) is right every time
        acc = torch.zeros(1)
        relaxed_lock_kernel[(n // block,)](x, acc, torch.zeros(1, dtype=torch.int32), BLOCK=block, SEM="acq_rel")
        assert torch.allclose(acc, x.sum(), rtol=1e-4)


@triton.jit
def lane_prefix_kernel(x_ptr, scratch_ptr, out_ptr, BLOCK: tl.constexpr):
    # red team s32b (u): the old values of one atomic_add all lanes aim at one word, read as a scan
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.atomic_add(scratch_ptr + 0 * offs, x) + x)


@triton.jit
def volatile_poll_scan_kernel(x_ptr, out_ptr, flag_ptr, BLOCK: tl.constexpr):
    # a chained scan polling an atomically raised flag with a volatile load (as GPU code is written)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    run = tl.cumsum(tl.load(x_ptr + offs), axis=0)
    carry = 0.0
    if pid > 0:
        while tl.load(flag_ptr + pid - 1, volatile=True) == 0:
            pass
        carry = tl.load(out_ptr + pid * BLOCK - 1)
    tl.store(out_ptr + offs, run + carry)
    tl.atomic_xchg(flag_ptr + pid, 1)


@needs_interpreter
def test_a_volatile_poll_of_an_atomic_flag_orders_what_follows():
    n, block = 10 * 16, 16
    x = torch.rand(n)

    def run():
        out = torch.zeros(n)
        volatile_poll_scan_kernel[(n // block,)](x, out, torch.zeros(n // block, dtype=torch.int32), BLOCK=block)
        return out
    assert _outcomes(run, lambda out: torch.allclose(out, x.cumsum(0), rtol=1e-4)) == ["right"] * RUNS


@needs_interpreter
def test_lanes_of_one_atomic_on_one_word_are_applied_in_no_set_order():
    """A GPU applies the lanes of one atomic to one address in no set order: their old values
    are no prefix sum here either, while the word's final value is the whole sum."""
    x = torch.rand(64) + 0.5

    def run():
        scratch, out = torch.zeros(1), torch.zeros(64)
        lane_prefix_kernel[(1,)](x, scratch, out, BLOCK=64)
        assert torch.allclose(scratch, x.sum(), rtol=1e-5)
        return out

    assert set(_outcomes(run, lambda out: torch.allclose(out, x.cumsum(0), rtol=1e-5))) == {"wrong"}


@triton.jit
def deadlock_kernel(flag_ptr):
    # each program waits for the other's flag before raising its own: a GPU hangs
    pid = tl.program_id(0)
    while tl.atomic_add(flag_ptr + 1 - pid, 0) == 0:
        pass
    tl.atomic_xchg(flag_ptr + pid, 1)


@needs_interpreter
def test_programs_that_wait_for_each_other_forever_are_refused_not_timed_out():
    from evaluator.interpreter_schedule import KernelDeadlockError

    with pytest.raises(Exception) as caught:
        deadlock_kernel[(2,)](torch.zeros(2, dtype=torch.int32))
    assert isinstance(_cause(caught.value), KernelDeadlockError)


@triton.jit
def delayed_reducer_kernel(x_ptr, part_ptr, cnt_ptr, out_ptr, n_prog, DELAY, BLOCK: tl.constexpr,
                           HOW: tl.constexpr):
    # red team s33 round 2: program 0 sums the others' partials with no wait, after DELAY dead
    # loads (a GPU's compiler deletes them) or, HOW 1, after polling a word nobody writes
    pid = tl.program_id(0)
    s = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    if pid != 0:
        tl.atomic_xchg(part_ptr.to(tl.pointer_type(tl.int32), bitcast=True) + pid, s.to(tl.int32, bitcast=True))
        tl.atomic_add(cnt_ptr, 1)
    else:
        if HOW == 0:
            for i in range(DELAY):
                tl.load(x_ptr + (i % BLOCK))
        elif HOW == 1:
            i = 0
            while tl.atomic_add(cnt_ptr + 1, 0) + i < 4:
                i += 1
        else:  # red team s34: three polls of a word nobody else writes, then it "wakes" itself
            w = tl.atomic_add(cnt_ptr + 1, 0) + tl.atomic_add(cnt_ptr + 1, 0) + tl.atomic_add(cnt_ptr + 1, 0)
            tl.atomic_add(cnt_ptr + 1, 1 + w)
            tl.atomic_add(cnt_ptr + 1, 0)
        tl.load(cnt_ptr, volatile=True)
        acc = s
        for j in range(1, n_prog):
            acc += tl.load(part_ptr + j)
        tl.store(out_ptr, acc)


@needs_interpreter
def test_a_delayed_reducer_reads_unwritten_partials_in_some_order_and_a_fake_wait_is_refused():
    """At rates, a program made slow by dead loads ran last in every draw; a strict launch (a
    random order of priority, STRICT of them) runs it where its priority falls. Polling a word
    nobody writes, four times, and going on is a wait for nothing: refused; so is a wait the
    program ends by its own write to the word."""
    from evaluator.interpreter_races import KernelRaceError

    n_prog, block = 12, 16
    x = torch.rand(n_prog * block)

    def run():
        out = torch.zeros(())
        delayed_reducer_kernel[(n_prog,)](x, torch.empty(n_prog), torch.zeros(2, dtype=torch.int32), out, n_prog,
                                          80 * n_prog, BLOCK=block, HOW=0)
        return out

    seen = _outcomes(run, lambda out: torch.allclose(out, x.sum(), rtol=1e-4))
    assert "wrong" in seen or "refused" in seen, seen
    with pytest.raises(Exception) as caught:
        delayed_reducer_kernel[(n_prog,)](x, torch.empty(n_prog), torch.zeros(2, dtype=torch.int32),
                                          torch.zeros(()), n_prog, 0, BLOCK=block, HOW=1)
    race = _cause(caught.value)
    assert isinstance(race, KernelRaceError) and "polled one word" in str(race)
    with pytest.raises(Exception) as caught:
        delayed_reducer_kernel[(n_prog,)](x, torch.empty(n_prog), torch.zeros(2, dtype=torch.int32),
                                          torch.zeros(()), n_prog, 0, BLOCK=block, HOW=2)
    race = _cause(caught.value)
    assert isinstance(race, KernelRaceError) and "polled one word" in str(race)
