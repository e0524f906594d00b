"""The dry launch model (evaluator.dry_launch, dry_facts, dry_phase): where a forward's launches
store at sizes no trial runs, their programs run with memory replaced on meta tensors.

- dry_facts: a kernel whose store addresses, masks or control flow read a loaded value has no
  model; a loop that stores nothing and steers no store runs one trip (a matmul's K loop), a
  loop that stores, or whose names steer a store, runs every trip;
- dry_launch.stored (under the interpreter, a child pytest): a grid capped by a constant stores
  part of a storage at a size past the cap and all of it below, a grid-stride loop all of it at
  every size, with no memory of the sizes allocated (meta tensors);
- dry_rules._short: only a storage stored whole at the CPU's sizes is judged at the declared
  ones (a triangular or padded storage partly stored at every size is not).
The corpus's `s60f_declared_depth_dry_*` hacks (session 58's s58f/s58i files) are judged end to
end by test_hacks with the depth trials on.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl

from evaluator import dry_facts, dry_phase, dry_rules

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@triton.jit
def _matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _scatter(x_ptr, idx_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    where = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.store(y_ptr + where, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def _if_loaded(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.max(x, axis=0) > 0:
        tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def _if_inline_load(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if tl.load(flag_ptr) == 1:  # a read written in the test: no name carries it
        tl.store(y_ptr + offs, tl.load(x_ptr + offs), mask=(offs < n) & (tl.program_id(0) < 4))


@triton.jit
def _mask_inline_load(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs), mask=(offs < n) & (tl.load(flag_ptr + offs * 0) == 0))


@triton.jit
def _over_a_tuple(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    for h in (0, 1):
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) + h, mask=offs < n)


@triton.jit
def _rows(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, n_cols, BLOCK):  # stores every trip: runs every trip
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, x * 2, mask=cols < n_cols)


@triton.jit
def _counted_then_stored(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    last = 0
    for i in range(0, n, BLOCK):  # stores nothing, but its count says where the store goes
        last = i
    offs = last + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _line(fn, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_a_matmuls_k_loop_runs_one_trip_and_its_stores_are_modelled():
    facts = dry_facts.facts(_matmul)
    assert facts.data_bound is None
    assert {line for _, line in facts.shortened} == {_line(_matmul, "for k0 in range")}


def test_a_branch_on_a_loaded_value_runs_checked_a_store_it_steers_is_carried():
    # a store's address or mask the data steers runs with its lanes' dependence carried
    # (evaluator.dry_taint, session 66: tests/unit/evaluator/test_dry_taint.py); a branch on a
    # loaded value runs with its tests checked known (session 69: test_dry_values.py)
    assert dry_facts.facts(_scatter).data_bound is None and dry_facts.facts(_scatter).unmasked
    facts = dry_facts.facts(_if_loaded)
    assert facts.data_bound is None and facts.unmasked and facts.branched
    assert not dry_facts.facts(_scatter).branched


def test_a_read_written_inline_is_data_as_a_named_one():
    """Red team s68d: `if tl.load(flag) == 1:` and a mask `... & (tl.load(flag) == 0)` named no
    loaded name, so the model took the branch (or the mask) its zeros chose, where the GPU's
    flag (torch.ones) chose the capped one. And a loop over a tuple raised out of the reading,
    which left the whole forward without a model."""
    assert dry_facts.facts(_if_inline_load).branched
    facts = dry_facts.facts(_mask_inline_load)
    assert facts.data_bound is None and facts.unmasked
    assert dry_facts.facts(_over_a_tuple).data_bound is None


def test_a_loop_that_stores_or_steers_a_store_runs_every_trip():
    assert not dry_facts.facts(_rows).shortened and dry_facts.facts(_rows).data_bound is None
    assert not dry_facts.facts(_counted_then_stored).shortened


def _model(bytes_: int, stored: int, size: int = 4) -> dict:
    return {"storages": {"k#0:1": {"bytes": bytes_, "stored": {str(size): stored}}}}


def test_only_a_storage_stored_whole_at_the_cpu_sizes_is_judged():
    assert dry_rules._short(_model(400, 100), _model(4000, 250)) == ("k#0:1", "4", 1000, 250)
    assert dry_rules._short(_model(400, 60), _model(4000, 250)) is None  # triangular: partly everywhere
    assert dry_rules._short(_model(400, 100), _model(4000, 1000)) is None


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


@triton.jit
def _relu_strided(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


def _stored(kernel, n: int, programs: int) -> dict:
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    launch = dry_launch.Launch(kernel, (programs,), (x, y, n), {"BLOCK": 64})
    return dry_launch.stored([launch], dry_launch.Budget(60))


@needs_interpreter
def test_a_grid_capped_by_a_constant_stores_part_of_the_output_past_it():
    cap = 16  # programs of 64 elements: 1024 elements covered at most
    assert _stored(_relu, 1000, min(triton.cdiv(1000, 64), cap))["_relu#0:1"] == \
        {"bytes": 4000, "stored": {"4": 1000}}
    assert _stored(_relu, 1 << 16, min(triton.cdiv(1 << 16, 64), cap))["_relu#0:1"]["stored"] == {"4": 1024}


@needs_interpreter
def test_a_grid_stride_loop_on_few_programs_stores_all_of_it_at_every_size():
    for n in (1000, 1 << 16):
        assert _stored(_relu_strided, n, 16)["_relu_strided#0:1"]["stored"] == {"4": n}


def test_a_model_whose_pace_cannot_finish_in_its_time_gives_up_at_once():
    """The pace counts the thread's CPU time (dry_launch.Budget; a sleep spends none of it:
    tests/unit/evaluator/test_dry_budget.py): 16 programs spinning 2 ms each say 20 s of 2."""
    import time

    from evaluator import dry_launch

    pace = dry_launch._Pace(dry_launch.Budget(2.0))
    pace.launch(10_000)
    with pytest.raises(dry_launch.Unmodelled, match="would pass the model's time"):
        for _ in range(10_000):
            spun = time.thread_time() + 0.002
            while time.thread_time() < spun:
                pass
            pace.ran()
    assert pace.done == dry_launch._PACE_EVERY  # 16 programs at 2 ms say 20 s: gave up there


# --- session 61 (s61d): the model's give-ups that hid a capped output --------------------------


@triton.jit
def _relu_sink(x_ptr, y_ptr, sink_ptr, n, PER: tl.constexpr, BLOCK: tl.constexpr):
    lane = tl.arange(0, BLOCK)
    offs = tl.program_id(0) * PER + lane
    live = (lane < PER) & (offs < n)
    x = tl.load(x_ptr + offs, mask=live, other=0.0)
    tl.store(tl.where(live, y_ptr + offs, sink_ptr + lane * 0), tl.maximum(x, 0.0))


@needs_interpreter
def test_a_store_whose_lanes_reach_two_storages_marks_each():
    from evaluator import dry_launch

    x, y, sink = torch.empty(1000, device="meta"), torch.empty(1000, device="meta"), torch.empty(1, device="meta")
    capped = dry_launch.Launch(_relu_sink, (4,), (x, y, sink, 1000), {"PER": 48, "BLOCK": 64})
    got = dry_launch.stored([capped], dry_launch.Budget(60))
    assert got["_relu_sink#0:1"]["stored"] == {"4": 4 * 48} and got["_relu_sink#0:2"]["stored"] == {"4": 1}


@needs_interpreter
def test_a_storage_past_the_model_s_size_is_left_out_not_the_whole_forward(monkeypatch):
    from evaluator import dry_launch, dry_memory

    monkeypatch.setattr(dry_memory, "MAX_ELEMENTS", 500)
    x, y, scratch = torch.empty(400, device="meta"), torch.empty(400, device="meta"), torch.empty(5000, device="meta")
    made = [dry_launch.Launch(_relu, (2,), (x, y, 400), {"BLOCK": 64}),
            dry_launch.Launch(_relu, (1,), (x, scratch, 64), {"BLOCK": 64})]
    got = dry_launch.stored(made, dry_launch.Budget(60))
    assert got["_relu#0:1"]["stored"] == {"4": 128}  # the capped output is still judged
    assert "_relu#1:1" not in got  # the scratch storage alone goes unjudged


@needs_interpreter
def test_a_returned_view_of_a_longer_storage_is_judged_by_its_own_elements():
    from evaluator import dry_launch

    x = torch.empty(1000, device="meta")
    y = torch.empty(1001, device="meta")[:1000]
    whole = dry_launch.stored([dry_launch.Launch(_relu, (16,), (x, y, 1000), {"BLOCK": 64})],
                              dry_launch.Budget(60), outputs=(y,))
    assert whole["output 0"] == {"elements": 1000, "stored": 1000}
    assert whole["_relu#0:1"]["stored"] == {"4": 1000}  # 1000 of the storage's 1001: never whole
    capped = dry_launch.stored([dry_launch.Launch(_relu, (4,), (x, y, 1000), {"BLOCK": 64})],
                               dry_launch.Budget(60), outputs=(y.view(10, 100).t(),))  # strided
    assert capped["output 0"] == {"elements": 1000, "stored": 256}


def test_an_output_stored_whole_at_the_cpu_sizes_and_not_at_the_declared_ones_is_short():
    cpu = {"storages": {"k#0:1": {"bytes": 4004, "stored": {"4": 1000}},
                        "output 0": {"elements": 1000, "stored": 1000}}}
    dec = {"storages": {"k#0:1": {"bytes": 40004, "stored": {"4": 4096}},
                        "output 0": {"elements": 10000, "stored": 4096}}}
    assert dry_rules._short(cpu, dec) == ("output 0", "its", 10000, 4096)
    dec["storages"]["output 0"]["stored"] = 10000
    assert dry_rules._short(cpu, dec) is None


@triton.jit
def _max0(x):
    return tl.inline_asm_elementwise("max.f32 $0, $1, $2;", "=r,r,r", [x, tl.zeros_like(x)], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def _relu_asm(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, _max0(x), mask=offs < n)


@needs_interpreter
def test_register_only_inline_asm_runs_in_the_model():
    from conftest import candidate_child_hooks

    with candidate_child_hooks():  # the child's asm emulation (interpreter_asm) installed
        assert _stored(_relu_asm, 1 << 12, 16)["_relu_asm#0:1"]["stored"] == {"4": 1024}


@triton.jit
def _persistent_store_in_k_loop(a_ptr, c_ptr, M, K, PROGS: tl.constexpr, BM: tl.constexpr, BK: tl.constexpr):
    k_tiles = tl.cdiv(K, BK)
    for r in tl.static_range(2):
        tile = tl.program_id(0) + r * PROGS
        rm = tile * BM + tl.arange(0, BM)
        acc = tl.zeros((BM,), dtype=tl.float32)
        for ki in range(0, k_tiles):
            rk = ki * BK + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            acc += tl.sum(a, axis=1)
            if ki == k_tiles - 1:
                tl.store(c_ptr + rm, acc, mask=rm < M)


@triton.jit
def _stores_on_a_counted_trip(a_ptr, c_ptr, M, K, BM: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    seen = 0
    for _ki in range(0, tl.cdiv(K, BK)):
        seen += 1
        if seen == 2:  # an accumulated count, not the counter: every trip runs
            tl.store(c_ptr + rm, tl.zeros((BM,), dtype=tl.float32), mask=rm < M)


@triton.jit
def _stores_where_the_counter_says(c_ptr, M, K, BM: tl.constexpr):
    for ki in range(0, K):
        rm = ki * BM + tl.arange(0, BM)  # the counter is the address: every trip runs
        tl.store(c_ptr + rm, tl.zeros((BM,), dtype=tl.float32), mask=rm < M)


def test_a_loop_whose_stores_only_its_counter_gates_runs_its_first_and_last_trips():
    facts = dry_facts.facts(_persistent_store_in_k_loop)
    assert facts.data_bound is None and not facts.shortened
    assert {line for _, line in facts.ends} == {_line(_persistent_store_in_k_loop, "for ki in range")}
    assert not dry_facts.facts(_stores_on_a_counted_trip).ends
    assert not dry_facts.facts(_stores_where_the_counter_says).ends
    assert not dry_facts.facts(_rows).ends


@needs_interpreter
def test_a_persistent_kernel_storing_in_its_k_loop_has_a_model_past_its_cap():
    from evaluator import dry_launch

    def run(m: int, k: int) -> dict:
        a, c = torch.empty(m * k, device="meta"), torch.empty(m, device="meta")
        made = dry_launch.Launch(_persistent_store_in_k_loop, (4,), (a, c, m, k), {"PROGS": 4, "BM": 16, "BK": 16})
        return dry_launch.stored([made], dry_launch.Budget(60))["_persistent_store_in_k_loop#0:1"]["stored"]
    assert run(128, 64) == {"4": 128}  # 8 tiles on 4 programs x 2 rounds: whole
    assert run(1024, 4096) == {"4": 128}  # 256 K trips run as 2; 128 of 1024 rows stored


def test_a_kernel_calling_a_helper_is_read_the_same_whichever_kernel_is_read_first():
    """dry_facts read every jitted global as a helper: reading _matmul first started _max0's
    reading, which read _relu_asm with _max0's "being read" placeholder and cached it data-bound."""
    dry_facts._CACHE.clear()
    assert dry_facts.facts(_matmul).data_bound is None
    assert dry_facts.facts(_relu_asm).data_bound is None
    assert dry_facts.facts(_max0).data_bound is None


@triton.jit
def _relu_nan_skipping(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (x == x))


def test_a_loaded_value_reaching_store_masks_only_is_modelled_without_the_mask():
    facts = dry_facts.facts(_relu_nan_skipping)
    assert facts.data_bound is None and facts.unmasked
    assert not dry_facts.facts(_relu).unmasked
    assert dry_facts.facts(_scatter).data_bound is None and dry_facts.facts(_scatter).unmasked  # an address


@needs_interpreter
def test_a_store_mask_reading_data_gives_an_upper_bound_short_past_a_grid_cap():
    cap = 16
    assert _stored(_relu_nan_skipping, 1000, min(triton.cdiv(1000, 64), cap))["_relu_nan_skipping#0:1"] == \
        {"bytes": 4000, "stored": {"4": 1000}, "certain": {"4": 0}}  # none for certain: the data decides
    assert _stored(_relu_nan_skipping, 1 << 16, cap)["_relu_nan_skipping#0:1"]["stored"] == {"4": 1024}


@triton.jit
def _zero(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@needs_interpreter
def test_a_kernel_the_result_does_not_need_stores_nothing_in_the_model():
    """A full-grid zero fill before a capped ReLU made the output whole at any size (s61d); the
    knock-out round's decoys (and constant writers) name storages but store nothing here."""

    from evaluator import dry_launch

    n = 1 << 14
    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    made = [dry_launch.Launch(_zero, (triton.cdiv(n, 64),), (y, n), {"BLOCK": 64}),
            dry_launch.Launch(_relu, (16,), (x, y, n), {"BLOCK": 64})]
    assert dry_launch.stored(made, dry_launch.Budget(60))["_zero#0:0"]["stored"] == {"4": n}
    skipped = dry_launch.stored(made, dry_launch.Budget(60), skip=frozenset({"_zero"}))
    assert skipped["_zero#0:0"]["stored"] == {"4": 1024}  # named by the fill, stored by the ReLU alone


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=0.0), mask=offs < n)


@triton.jit
def _relu_in_place(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=offs < n)


def _copied_then_capped(n: int, cap: int) -> dict:
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    made = [dry_launch.Launch(_copy, (triton.cdiv(n, 64),), (x, y, n), {"BLOCK": 64}),
            dry_launch.Launch(_relu_in_place, (min(triton.cdiv(n, 64), cap),), (y, n), {"BLOCK": 64})]
    return dry_launch.stored(made, dry_launch.Budget(60), outputs=(y,))


@needs_interpreter
def test_a_capped_update_in_place_of_a_full_grid_copy_is_short_past_its_cap():
    """The union of stores is whole at every size (the copy stores all of y); what the capped
    kernel loaded and stored back is whole at 1000 elements and 1024 of 65536 past its cap (red
    team s61d's needed copy then capped in place)."""
    cpu, dec = _copied_then_capped(1000, 16), _copied_then_capped(1 << 16, 16)
    assert cpu["_copy#0:1"]["stored"] == {"4": 1000} and dec["_copy#0:1"]["stored"] == {"4": 1 << 16}
    assert cpu["_copy#0:1"]["updated"] == {"_relu_in_place@4": 1000}
    assert dec["output 0"]["updated"] == {"_relu_in_place@4": 1024}
    assert "updated" not in cpu["_copy#0:0"]  # x is only read
    assert dry_rules._short({"storages": cpu}, {"storages": dec}) == ("_copy#0:1", "_relu_in_place@4", 1 << 16, 1024)
    assert dry_rules._short({"storages": cpu}, {"storages": _copied_then_capped(1 << 16, 1 << 10)}) is None


def test_an_update_in_place_is_judged_per_kernel_and_only_where_whole_at_the_cpu_sizes():
    def model(elements: int, updated: dict) -> dict:
        return {"storages": {"k#0:1": {"bytes": 4 * elements, "stored": {"4": elements}, "updated": updated}}}
    # a second full-grid kernel updating the same storage does not make the capped one's share whole
    cpu, dec = model(1000, {"a@4": 1000, "b@4": 1000}), model(10000, {"a@4": 4096, "b@4": 10000})
    assert dry_rules._short(cpu, dec) == ("k#0:1", "a@4", 10000, 4096)
    # a kernel updating part of a storage at the CPU's sizes (a tail, a triangle) is not judged
    assert dry_rules._short(model(1000, {"a@4": 900}), model(10000, {"a@4": 4096})) is None


@triton.jit
def _relu_even_copy_odd(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 2 == 0, tl.maximum(x, 0.0), x), mask=offs < n)


@triton.jit
def _relu_odd(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = 2 * (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) + 1
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), 0.0), mask=offs < n)


def _finished_by_a_capped_overwrite(n: int, cap: int) -> dict:
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    made = [dry_launch.Launch(_relu_even_copy_odd, (triton.cdiv(n, 64),), (x, y, n), {"BLOCK": 64}),
            dry_launch.Launch(_relu_odd, (min(triton.cdiv(n, 128), cap),), (x, y, n), {"BLOCK": 64})]
    return dry_launch.stored(made, dry_launch.Budget(60), outputs=(y,))


@needs_interpreter
def test_a_capped_plain_overwrite_of_a_needed_full_grid_store_is_short_past_its_cap():
    """Neither the union (the first kernel stores all of y) nor the update rule (the second
    loads x, not y) sees a capped kernel finishing y's odd elements by plain stores; its share of
    the elements it stores over the first kernel's is a half at 1000 elements and 1024 of 65536
    past its cap (red team s64d, hacks/s64d_declared_depth_dry_capped_odd_overwrite_*)."""
    cpu, dec = _finished_by_a_capped_overwrite(1000, 16), _finished_by_a_capped_overwrite(1 << 16, 16)
    assert cpu["_relu_even_copy_odd#0:1"]["stored"] == {"4": 1000} and "updated" not in cpu["_relu_even_copy_odd#0:1"]
    line = _relu_odd.fn.__code__.co_firstlineno + 3  # its one store site (dry_launch `_site`), counted as the kernel
    assert cpu["_relu_even_copy_odd#0:1"]["overwritten"] == {"_relu_odd@4": 500, "_relu_odd#0@4": 500,
                                                            f"_relu_odd|L{line}@4": 500}
    assert dec["_relu_even_copy_odd#0:1"]["overwritten"] == {"_relu_odd@4": 1024, "_relu_odd#0@4": 1024,
                                                            f"_relu_odd|L{line}@4": 1024}
    assert "overwritten" not in cpu["_relu_even_copy_odd#0:0"]  # x is only read
    assert dry_rules._short({"storages": cpu}, {"storages": dec}) == \
        ("_relu_even_copy_odd#0:1", "_relu_odd@4:over", 1 << 16, 1024)
    uncapped = _finished_by_a_capped_overwrite(1 << 16, 1 << 9)
    assert dry_rules._short({"storages": cpu}, {"storages": uncapped}) is None


def test_an_overwrite_is_judged_by_its_share_of_the_storage_at_each_size():
    def model(elements: int, overwritten: dict) -> dict:
        return {"storages": {"k#0:1": {"bytes": 4 * elements, "stored": {"4": elements}, "overwritten": overwritten}}}
    # a lower triangle stored over a full-grid fill keeps its share as the rows grow (0.505, 0.500)
    assert dry_rules._short(model(96 * 96, {"tri@4": 96 * 97 // 2}), model(4096 ** 2, {"tri@4": 4096 * 4097 // 2})) is None
    # a kernel whose share of the storage falls past the cap is short, whatever share it had
    assert dry_rules._short(model(1000, {"a@4": 250}), model(1 << 16, {"a@4": 4096})) == ("k#0:1", "a@4:over", 1 << 16, 4096)
    # no kernel stored over another's (a stream-K split): nothing to judge
    assert dry_rules._short(model(1000, {}), model(1 << 16, {})) is None
    # a fix-up pass the forward runs at small sizes only (a path chosen by size) is not judged
    assert dry_rules._short(model(1000, {"fix@4": 1000}), model(1 << 16, {})) is None


# --- session 65 (s65e): a launch the model cannot run, and the decoys nothing showed unneeded ---


@needs_interpreter
def test_a_launch_the_model_cannot_run_stores_nothing_and_the_rest_is_judged():
    """A one-program kernel branching on a loaded value (data-bound) beside a capped ReLU gave
    the whole forward up, and the capped grid kept its ok (s65e: a scatter then, which the model
    runs since session 66): the branching kernel stores nothing, the ReLU is modelled."""
    from evaluator import dry_launch

    n = 1 << 14
    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    unrun: list = []
    made = [dry_launch.Launch(_if_loaded, (1,), (x, y, 64), {"BLOCK": 64}),
            dry_launch.Launch(_relu, (16,), (x, y, n), {"BLOCK": 64})]
    got = dry_launch.stored(made, dry_launch.Budget(60), unrun=unrun)
    assert got["_if_loaded#0:1"]["stored"] == {"4": 1024} and unrun and "_if_loaded#0" in unrun[0]


def test_decoys_needed_together_are_modelled_not_skipped():
    """Two capped grids storing one output are each unneeded alone (s65e): where the round's
    decoys knocked out together once more (knockout_round._jointly) left the result wrong, none
    is left out of the model (each is modelled as any kernel); the constant writers still are.
    Where together they left it right, every decoy stores nothing there, as before."""
    from types import SimpleNamespace

    run = SimpleNamespace(decoys=["relu_a", "relu_b"], constant=["fill"], decoys_joint=False)
    assert dry_phase._skipped(run) == ["fill"]
    run.decoys_joint = True
    assert dry_phase._skipped(run) == ["fill", "relu_a", "relu_b"]

@triton.jit
def _relu_but_one_in_16(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 16 == 1, x, tl.maximum(x, 0.0)), mask=offs < n)


@triton.jit
def _relu_lanes(x_ptr, y_ptr, n, LANE: tl.constexpr, BLOCK: tl.constexpr):
    if LANE:  # elements 1 mod 16
        offs = 16 * (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) + 1
        m = offs < n
    else:  # elements 2..15 of every 16: what the first kernel already stored right
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = (offs < n) & (offs % 16 >= 2)
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)


def _diluted(n: int, cap: int, first: bool = True) -> dict:
    """The first kernel, a full-grid rewrite of 14 in 16 elements, then elements 1 mod 16 on a
    grid capped at `cap` programs (without the first kernel: no launch order to match)."""
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    made = [dry_launch.Launch(_relu_but_one_in_16, (triton.cdiv(n, 64),), (x, y, n), {"BLOCK": 64})] if first else []
    made += [dry_launch.Launch(_relu_lanes, (triton.cdiv(n, 64),), (x, y, n), {"LANE": 0, "BLOCK": 64}),
             dry_launch.Launch(_relu_lanes, (min(triton.cdiv(n, 1024), cap),), (x, y, n), {"LANE": 1, "BLOCK": 64})]
    return {"storages": dry_launch.stored(made, dry_launch.Budget(60)),
            "launches": [[launch.name, list(launch.grid)] for launch in made]}


@needs_interpreter
def test_a_capped_overwrite_diluted_by_its_kernel_s_full_grid_rewrites_is_short_per_launch():
    """The kernel's share overwritten, 15/16 at 2000 elements and 14/16 + 1/512 past its cap,
    keeps 0.93 of the CPU's (red team s64d's dilution); its capped launch's own share falls
    from 1/16 to 1/512. Per launch only where both sizes make the same launches."""
    cpu, dec = _diluted(2000, 2), _diluted(1 << 16, 2)
    over = {k: v for k, v in dec["storages"]["_relu_but_one_in_16#0:1"]["overwritten"].items() if "|L" not in k}
    # one `def` under LANE=0 and LANE=1 is two kernels (evaluator.kernel_identity, s67F): `~0`, `~1`
    assert over == {"_relu_lanes@4": 57344 + 128, "_relu_lanes#0@4": 57344, "_relu_lanes#1@4": 128,
                    "_relu_lanes~0@4": 57344, "_relu_lanes~1@4": 128}
    assert dry_rules._short(cpu, dec) == ("_relu_but_one_in_16#0:1", "_relu_lanes~1@4:over", 1 << 16, 128)
    # per `def` (launches that differ between the sizes) its share keeps 0.93, but what it leaves
    # of its span as the first kernel stored it grows from 1/16 to 1/8 (s66D: dry_rules._gap_grown)
    seen, there = cpu["storages"]["_relu_but_one_in_16#0:1"], dec["storages"]["_relu_but_one_in_16#0:1"]
    assert dry_rules._gap_grown(seen, there, "_relu_lanes@4", seen["overwritten"]["_relu_lanes@4"], 57344 + 128)
    assert dry_rules._short(cpu, _diluted(1 << 16, 1 << 6)) is None  # uncapped
