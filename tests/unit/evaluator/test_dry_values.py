"""The values a launch of the dry model's real forward loads (evaluator.dry_values, session 67):
where a store's mask or address is the loaded data's to decide, the model runs on the problem's
CPU draw, and a lane loads what its storage held when the launch was made where the GPU's launch
loads the same.

- a capped grid whose every lane a loaded NaN test decides (`(pid < 16) ^ (x != x)`: red team
  s66c) stores nothing for certain on the model's zeros, and on the draw stores the capped part:
  short past the cap (the union rule itself);
- a full grid wrapped into a capped window at a loaded zero's offset (s66c) stores at known
  addresses on the draw: the window only;
- an honest NaN-skipping mask (`x == x`) stores every element for certain on the draw, at both sizes;
- what a launch made before may have stored, what torch.empty left, and what the running launch
  stored itself are never read: zeros there, the data's as before;
- an atomic that leaves memory as it was (add 0, or 0, max with the least value, a CAS or an
  exchange of the value held) reads the draw as a load does (evaluator.dry_atomics, red team
  s69c); a ticket's or a lock's old value stays the data's;
- what a launch the real forward runs stores into torch.empty's memory is known from then on
  where it loaded nothing unset and one program wrote it (evaluator.dry_ran, red team s69c).
"""
from __future__ import annotations

import os

import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from conftest import interpreted_child

from evaluator import dry_rules, dry_values

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    interpreted_child(__file__)


@triton.jit
def _cap_xor_nan(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & ((offs * 0 + pid < 16) ^ (x != x)))


@triton.jit
def _nan_skipping(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (x == x))


@triton.jit
def _wrapped(x_ptr, y_ptr, zero_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    shift = tl.load(zero_ptr)
    tl.store(y_ptr + (offs % 1024) + shift, tl.maximum(x, 0.0), mask=(offs < n) & (offs < 1024))
    tl.store(y_ptr + (offs % 1024) + shift * (offs + 1), tl.maximum(x, 0.0), mask=(offs < n) & (offs >= 1024))


@triton.jit
def _flag_first(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(flag_ptr + pid * 0, 1, mask=pid == 0)  # program 0 marks the flag, later programs read it
    flag = tl.load(flag_ptr + offs * 0)
    tl.store(y_ptr + offs, x, mask=(offs < n) & ((offs * 0 + pid < 16) | (flag == 0)))


@triton.jit
def _capped_if_flag(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.load(flag_ptr) == 1:  # red team s68d: a torch.ones flag, the capped store on the GPU
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (pid < 16))
    else:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


@triton.jit
def _capped_trips(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    trips = tl.load(flag_ptr)
    for _ in range(trips):  # a loop's bound the flag makes (`__index__`)
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (pid < 16))
    for _ in range(1 - trips):
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


@triton.jit
def _stored_then_tested(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x, mask=offs < n)  # stored before a test the data decides: rolled back
    if tl.atomic_add(flag_ptr, 1) == 1:  # a ticket's old value (it changes memory): the data's
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (pid < 16))


@triton.jit
def _capped_if_atomic_read(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if MODE == 0:  # red team s69c: an add of 0 reads the torch.ones flag
        go = tl.atomic_add(flag_ptr, 0)
    elif MODE == 1:
        go = tl.atomic_or(flag_ptr, 0)
    elif MODE == 2:
        go = tl.atomic_max(flag_ptr, -2147483648)
    elif MODE == 3:  # a compare-and-swap of equal values
        go = tl.atomic_cas(flag_ptr, 1, 1)
    else:  # an exchange of the value held
        go = tl.atomic_xchg(flag_ptr, 1)
    if go == 1:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (pid < 16))
    else:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


@triton.jit
def _locked(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    while tl.atomic_cas(flag_ptr, 1, 2) == 2:  # tutorial 05's lock (taken where it held 1)
        pass
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
    tl.atomic_xchg(flag_ptr, 1)


def _key(t) -> int:
    return t.untyped_storage()._cdata


def _model(kernel, tensors: list, ints: tuple, programs: int, launched: dict | None = None, real: bool = True):
    """The model of one launch on CPU tensors: with `real`, its storages copied as made."""
    from evaluator import dry_launch

    dry_values.start()
    launch = dry_launch.Launch(kernel, (programs,), (*tensors, *ints), {"BLOCK": 64})
    if real:
        dry_values.take(0, kernel, tensors, launched or {}, _key)
    return dry_launch.stored([launch], dry_launch.Budget(60))


def _y(kernel, n: int, programs: int, **kw) -> dict:
    x = torch.randn(n)
    return _model(kernel, [x, torch.empty(n)], (n,), programs, **kw)[f"{kernel.fn.__name__}#0:1"]


@needs_interpreter
def test_a_cap_every_lane_of_which_the_data_decides_is_seen_on_the_draw():
    cpu, dec = _y(_cap_xor_nan, 1000, 16), _y(_cap_xor_nan, 1 << 16, 1 << 10)
    assert cpu["stored"] == {"4": 1000} and dec["stored"] == {"4": 1024}
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": dec}}) == ("y", "4", 1 << 16, 1024)
    # on the model's zeros every lane is the data's at both sizes: nothing judged (s66C's hole)
    zeros_cpu, zeros_dec = _y(_cap_xor_nan, 1000, 16, real=False), _y(_cap_xor_nan, 1 << 16, 1 << 10, real=False)
    assert zeros_cpu["certain"] == {"4": 0}
    assert dry_rules._short({"storages": {"y": zeros_cpu}}, {"storages": {"y": zeros_dec}}) is None


@needs_interpreter
def test_an_honest_nan_skipping_mask_is_whole_for_certain_on_the_draw_at_both_sizes():
    cpu, dec = _y(_nan_skipping, 1000, 16), _y(_nan_skipping, 1 << 16, 1 << 10)
    assert cpu["stored"] == {"4": 1000} and dec["stored"] == {"4": 1 << 16}
    assert cpu.get("certain", {"4": 1000}) == {"4": 1000}
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": dec}}) is None


@needs_interpreter
def test_a_grid_wrapped_into_a_window_at_a_loaded_zero_stores_the_window_only():
    def y(n: int) -> dict:
        tensors = [torch.randn(n), torch.empty(n), torch.zeros(1, dtype=torch.int32)]
        return _model(_wrapped, tensors, (n,), n // 64)["_wrapped#0:1"]
    cpu, dec = y(1024), y(1 << 14)
    assert cpu["stored"] == {"4": 1024} and dec["stored"] == {"4": 1024} and "loose" not in dec
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": dec}}) == ("y", "4", 1 << 14, 1024)


@needs_interpreter
def test_what_a_launch_may_have_stored_and_fresh_memory_are_never_read():
    n = 1 << 12
    x, y = torch.randn(n), torch.empty(n)
    earlier = _model(_cap_xor_nan, [x, y], (n,), n // 64, launched={_key(x): x.untyped_storage()})
    assert earlier["_cap_xor_nan#0:1"]["certain"] == {"4": 0}  # zeros, the data's: as before
    dry_values.start()
    dry_values.made_unset(_key(x), x)
    from evaluator import dry_launch

    dry_values.take(0, _cap_xor_nan, [x, y], {}, _key)
    assert all(base != x.untyped_storage().data_ptr() for base, *_ in dry_values.of(0))
    got = dry_launch.stored([dry_launch.Launch(_cap_xor_nan, (n // 64,), (x, y, n), {"BLOCK": 64})],
                            dry_launch.Budget(60))
    assert got["_cap_xor_nan#0:1"]["certain"] == {"4": 0}


@needs_interpreter
def test_what_the_running_launch_stored_itself_is_not_read_from_the_copy():
    n = 1 << 12
    tensors = [torch.randn(n), torch.empty(n), torch.zeros(1, dtype=torch.int32)]
    got = _model(_flag_first, tensors, (n,), n // 64)["_flag_first#0:1"]
    # program 0 stores the flag before it loads it: from there on the flag is the data's, and
    # only the first 16 programs store for certain (on the GPU the flag reads 1: capped)
    assert got["certain"] == {"4": 16 * 64}


def test_fresh_memory_and_what_is_computed_from_it_stay_unset_until_a_whole_fill():
    from evaluator import dry_tells

    dry_tells.start("real")
    try:
        with dry_tells.Taint():
            fresh, filled, half = torch.empty(4), torch.empty(4), torch.empty(4)
            made = fresh + 1
            filled.fill_(0)
            half[:2].fill_(0)
            copied = torch.zeros(4)
            copied.copy_(fresh)
            drawn = torch.zeros(4) + 1
        unset = {_key(t) for t in (fresh, made, half, copied)}
        assert unset <= set(dry_values._UNSET) and _key(filled) not in dry_values._UNSET
        assert _key(drawn) not in dry_values._UNSET
    finally:
        dry_tells.start(None)


@needs_interpreter
def test_a_data_addressed_launch_the_pace_stops_leaves_its_storages_unjudged():
    """On the draw its addresses are known: its first programs' stores are no lower bound (the
    honest Inductor epilogues s50h_09 and s50h_12 went short where the pace stopped them)."""
    from evaluator import dry_launch

    ticks = iter(range(10**6))
    n, unrun = 1 << 14, []
    tensors = [torch.randn(n), torch.empty(n), torch.zeros(1, dtype=torch.int32)]
    dry_values.start()
    dry_values.take(0, _wrapped, tensors, {}, _key)
    got = dry_launch.stored([dry_launch.Launch(_wrapped, (n // 64,), (*tensors, n), {"BLOCK": 64})],
                            dry_launch.Budget(40, cpu=lambda: float(next(ticks))), unrun=unrun)
    assert unrun and "_wrapped#0:1" not in got


@needs_interpreter
def test_a_branched_launch_the_pace_stops_leaves_its_storages_unjudged():
    """Rolled back, it stored nothing at the declared sizes and everything at the CPU's: an
    honest grouped GEMM (honest/s57d_22, 16384 programs) was refused so in session 69."""
    from evaluator import dry_launch

    ticks = iter(range(10**6))
    n, unrun = 1 << 14, []
    tensors = [torch.randn(n), torch.empty(n), torch.zeros(1, dtype=torch.int32)]
    dry_values.start()
    dry_values.take(0, _capped_if_flag, tensors, {}, _key)
    got = dry_launch.stored([dry_launch.Launch(_capped_if_flag, (n // 64,), (*tensors, n), {"BLOCK": 64})],
                            dry_launch.Budget(40, cpu=lambda: float(next(ticks))), unrun=unrun)
    assert unrun and "_capped_if_flag#0:1" not in got


def _branched(kernel, n: int, real: bool = True) -> tuple:
    from evaluator import dry_launch

    tensors = [torch.randn(n), torch.empty(n), torch.ones(1, dtype=torch.int32)]
    dry_values.start()
    if real:
        dry_values.take(0, kernel, tensors, {}, _key)
    unrun, branched = [], []
    got = dry_launch.stored([dry_launch.Launch(kernel, (-(-n // 64),), (*tensors, n), {"BLOCK": 64})],
                            dry_launch.Budget(60), unrun=unrun, branched=branched)
    return got[f"{kernel.fn.__name__}#0:1"], unrun, branched


@needs_interpreter
def test_a_capped_store_under_a_branch_on_a_loaded_flag_is_seen_on_the_draw():
    """Red team s68d: `if tl.load(flag) == 1:` chose a capped store where the flag is torch.ones.
    Data-bound, the launch was not run, and nothing was judged at either size; now each test
    runs checked known: on the model's zeros it is the data's (the launch stores nothing and is
    named `branched`, so the forward is modelled on the draw), on the draw the flag is 1."""
    for kernel in (_capped_if_flag, _capped_trips):
        zeros, unrun, branched = _branched(kernel, 1 << 14, real=False)
        assert zeros["stored"] == {} and unrun and branched == [f"{kernel.fn.__name__}#0"], kernel
        cpu, _, _ = _branched(kernel, 1000)
        dec, unrun, branched = _branched(kernel, 1 << 14)
        assert cpu["stored"] == {"4": 1000} and dec["stored"] == {"4": 1024} and not unrun and not branched
        assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": dec}}) == ("y", "4", 1 << 14, 1024)


@needs_interpreter
def test_a_launch_a_data_decided_test_stops_stores_nothing():
    """What its programs stored before the test stopped it is no lower bound (a decoupled
    look-back's first program is whole at a one-block CPU size): rolled back, as never run."""
    got, unrun, branched = _branched(_stored_then_tested, 1 << 12)
    assert got["stored"] == {} and branched == ["_stored_then_tested#0"] and "test" in unrun[0]


def _atomic_read(n: int, mode: int, real: bool = True) -> tuple:
    from evaluator import dry_launch

    tensors = [torch.randn(n), torch.empty(n), torch.ones(1, dtype=torch.int32)]
    dry_values.start()
    if real:
        dry_values.take(0, _capped_if_atomic_read, tensors, {}, _key)
    unrun, branched = [], []
    got = dry_launch.stored([dry_launch.Launch(_capped_if_atomic_read, (-(-n // 64),), (*tensors, n),
                                               {"BLOCK": 64, "MODE": mode})],
                            dry_launch.Budget(60), unrun=unrun, branched=branched)
    return got["_capped_if_atomic_read#0:1"], unrun, branched


@needs_interpreter
@pytest.mark.parametrize("mode", range(5), ids=["add0", "or0", "max_least", "cas_equal", "xchg_held"])
def test_a_capped_store_under_a_branch_on_an_atomic_that_leaves_memory_is_seen_on_the_draw(mode):
    """Red team s69c: `if tl.atomic_add(flag, 0) == 1:` chose a capped store (the flag
    torch.ones); an atomic's old value was the data's on the draw too, the launch rolled back at
    both sizes and its store judged nowhere. An atomic leaving memory as it was reads the draw."""
    zeros, unrun, branched = _atomic_read(1 << 14, mode, real=False)
    assert zeros["stored"] == {} and branched == ["_capped_if_atomic_read#0"]
    cpu, _, _ = _atomic_read(1000, mode)
    dec, unrun, branched = _atomic_read(1 << 14, mode)
    assert cpu["stored"] == {"4": 1000} and dec["stored"] == {"4": 1024} and not unrun and not branched


@needs_interpreter
def test_a_lock_taken_by_an_atomic_still_stops_a_branched_launch():
    """A compare-and-swap that takes the lock changes memory: its old value is known in the
    first program (it read the draw), but the next program's is what the first one left, the
    data's: the launch is rolled back, as every lock and ticket since session 69."""
    from evaluator import dry_launch

    n = 1 << 12
    tensors = [torch.randn(n), torch.empty(n), torch.ones(1, dtype=torch.int32)]
    dry_values.start()
    dry_values.take(0, _locked, tensors, {}, _key)
    unrun, branched = [], []
    got = dry_launch.stored([dry_launch.Launch(_locked, (n // 64,), (*tensors, n), {"BLOCK": 64})],
                            dry_launch.Budget(60), unrun=unrun, branched=branched)
    assert got["_locked#0:1"]["stored"] == {} and branched == ["_locked#0"]


@triton.jit
def _set_one(flag_ptr, src_ptr, MODE: tl.constexpr):
    if MODE == 0:  # red team s69c: a one-program launch sets the torch.empty flag to 1
        tl.store(flag_ptr, 1)
    elif MODE == 1:  # one program's atomic exchange
        tl.atomic_xchg(flag_ptr, 1)
    elif MODE == 2:  # what it stores comes from memory torch.empty left: noise
        tl.store(flag_ptr, tl.load(src_ptr))
    else:  # every program stores 1: the same bits whatever the order
        tl.store(flag_ptr, 1)


@needs_interpreter
@pytest.mark.parametrize("mode, programs, known",
                         [(0, 1, True), (1, 1, True), (2, 1, False), (3, 4, True)],
                         ids=["store", "xchg", "from_noise", "same_value_from_every_program"])
def test_what_a_run_launch_stores_into_empty_memory_is_known_where_the_gpu_stores_the_same(mode, programs, known):
    """A launch the real forward runs (dry_tells `feeds`) that sets a torch.empty flag: the flag
    was unset whatever it stored, and the capped store a test on it chose judged nowhere (red
    team s69c, ok at 1.0011). Now known where it loaded nothing unset and one program wrote it or
    every store wrote the same bits (two values from two programs race: the guard refuses that)."""
    from evaluator import dry_ran

    flag, src = torch.empty(1, dtype=torch.int32), torch.empty(1, dtype=torch.int32)
    dry_values.start()
    for t in (flag, src):
        dry_values.made_unset(_key(t), t)
    loaded = [src] if mode == 2 else []
    with dry_ran.recording(loaded, [flag], _key, {}):
        _set_one[(programs,)](flag, src, MODE=mode)
    assert bool(dry_values._KNOWN.get(_key(flag), np.zeros(4, dtype=bool)).all()) is known
    x, y = torch.randn(1 << 14), torch.empty(1 << 14)
    dry_values.take(0, _capped_if_flag, [x, y, flag], {}, _key)
    from evaluator import dry_launch

    unrun, branched = [], []
    got = dry_launch.stored([dry_launch.Launch(_capped_if_flag, (256,), (x, y, flag, 1 << 14), {"BLOCK": 64})],
                            dry_launch.Budget(60), unrun=unrun, branched=branched)
    stored = got["_capped_if_flag#0:1"]["stored"]
    if known:
        assert stored == {"4": 1024} and not branched
    else:
        assert stored == {} and branched == ["_capped_if_flag#0"]


def test_a_fill_of_a_view_of_empty_memory_makes_those_bytes_known():
    """`flag[0] = 1` on a torch.empty storage sets one element: those bytes are known, the rest
    stay unset."""
    flag = torch.empty(2, dtype=torch.int32)
    dry_values.start()
    dry_values.made_unset(_key(flag), flag)
    dry_values.observed(torch.ops.aten.fill_.Scalar, (flag[0], 1), {}, flag[0], _key,
                        lambda v: [t for t in (v if isinstance(v, (list, tuple)) else [v]) if isinstance(t, torch.Tensor)])
    assert dry_values._KNOWN[_key(flag)].tolist() == [True] * 4 + [False] * 4
