"""What the loaded data decides in the dry launch model (evaluator.dry_taint, session 66): a
kernel whose loaded values reach its store masks or addresses (and no branch or loop) runs with
each lane's dependence on the data carried; a lane the data decides is stored maybe, never for
certain, and one at an address the data makes may land anywhere (`loose`).

- a mask ORed with a loaded test beside a cap (red team s65h) stores every lane maybe and the
  capped programs' for certain: short for certain past the cap (`dry_rules._short`, ":sure");
- a capped grid storing at an address plus a loaded zero (red team s65e) stores its lanes loose:
  past the cap fewer lanes than elements, where at the CPU's sizes they could cover all (":loose");
- an honest NaN-skipping mask (`x == x`) is decided by the data everywhere: never judged by it;
- a loop's counter, a reduction over known values and the launch's arguments stay known.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl

from evaluator import dry_facts, dry_rules

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@triton.jit
def _nan_or_cap(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & ((pid < 16) | (x != x)))


@triton.jit
def _sum_or_cap(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    total = tl.sum(x, axis=0)
    tl.store(y_ptr + offs, x, mask=(offs < n) & ((pid < 16) | (total != total)))


@triton.jit
def _nan_skipping(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (x == x))


@triton.jit
def _shifted(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    shift = (x != x).to(tl.int32)
    tl.store(y_ptr + offs + shift, x, mask=offs < n)


@triton.jit
def _rows_beside_a_loaded_mask(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(x_ptr + row * n_cols + cols, x, mask=(cols < n_cols) & (x == x))
        tl.store(y_ptr + row * n_cols + cols, x * 2, mask=cols < n_cols)


@triton.jit
def _if_loaded(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.max(x, axis=0) > 0:
        tl.store(y_ptr + offs, x, mask=offs < n)


def test_a_loaded_value_in_a_store_s_mask_or_address_is_run_a_branch_on_one_runs_checked():
    for kernel in (_nan_or_cap, _sum_or_cap, _nan_skipping, _shifted, _rows_beside_a_loaded_mask):
        facts = dry_facts.facts(kernel)
        assert facts.data_bound is None and facts.unmasked and not facts.branched, kernel
    facts = dry_facts.facts(_if_loaded)  # session 69: each test checked known (evaluator.dry_tests)
    assert facts.data_bound is None and facts.branched


def _stored(kernel, n: int, programs: int, name: str = "1") -> dict:
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    launch = dry_launch.Launch(kernel, (programs,), (x, y, n), {"BLOCK": 64})
    return dry_launch.stored([launch], dry_launch.Budget(60))[f"{kernel.fn.__name__}#0:{name}"]


@needs_interpreter
def test_a_loaded_test_ored_beside_a_cap_is_stored_for_certain_only_below_it():
    for kernel in (_nan_or_cap, _sum_or_cap):  # through a reduction as through an elementwise op
        assert _stored(kernel, 1000, 16) == {"bytes": 4000, "stored": {"4": 1000}, "certain": {"4": 1000}}
        past = _stored(kernel, 1 << 16, 1 << 10)
        assert past["stored"] == {"4": 1 << 16} and past["certain"] == {"4": 1024}
        cpu, dec = {"storages": {"y": _stored(kernel, 1000, 16)}}, {"storages": {"y": past}}
        assert dry_rules._short(cpu, dec) == ("y", "4:sure", 1 << 16, 1024)


@needs_interpreter
def test_an_honest_nan_skipping_mask_is_never_stored_for_certain_nor_judged_by_it():
    cpu, dec = _stored(_nan_skipping, 1000, 16), _stored(_nan_skipping, 1 << 16, 1 << 10)
    assert cpu["stored"] == {"4": 1000} and cpu["certain"] == {"4": 0}
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": dec}}) is None


@needs_interpreter
def test_a_capped_grid_at_a_loaded_offset_stores_loose_lanes_too_few_past_the_cap():
    cpu, capped = _stored(_shifted, 1000, 16), _stored(_shifted, 1 << 16, 16)
    assert cpu["stored"] == {} and cpu["loose"] == {"4": 1000} and capped["loose"] == {"4": 1024}
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": capped}}) == ("y", "4:loose", 1 << 16, 1024)
    full = _stored(_shifted, 1 << 16, 1 << 10)  # a grid that grows with the sizes: never short
    assert dry_rules._short({"storages": {"y": cpu}}, {"storages": {"y": full}}) is None


@needs_interpreter
def test_a_loop_s_counter_and_the_launch_s_arguments_stay_known():
    from evaluator import dry_launch

    x, y = torch.empty(8, 200, device="meta"), torch.empty(8, 200, device="meta")
    launch = dry_launch.Launch(_rows_beside_a_loaded_mask, (8,), (x, y, 200), {"BLOCK": 64})
    got = dry_launch.stored([launch], dry_launch.Budget(60))
    assert got["_rows_beside_a_loaded_mask#0:1"]["stored"] == {"4": 1600}
    assert got["_rows_beside_a_loaded_mask#0:1"].get("certain", {"4": 1600}) == {"4": 1600}
    assert got["_rows_beside_a_loaded_mask#0:0"]["certain"] == {"4": 0}


def test_the_rules_on_what_the_data_decides_are_the_union_rule_without_such_lanes():
    plain = {"bytes": 400, "stored": {"4": 100}}
    assert dry_rules._steered_short(plain, {"bytes": 4000, "stored": {"4": 1000}}, "4", 100, 1000) is None
    half = {"bytes": 400, "stored": {"4": 50}, "loose": {"4": 60}}
    assert dry_rules._steered_short(half, {"bytes": 4000, "stored": {"4": 500}, "loose": {"4": 499}},
                                    "4", 100, 1000) == (":loose", 999)
    assert dry_rules._steered_short(half, {"bytes": 4000, "stored": {"4": 500}, "loose": {"8": 250}},
                                    "4", 100, 1000) is None  # an 8-byte lane may cover two elements
    assert dry_rules._steered_short({"elements": 100, "stored": 100, "certain": 100},
                                    {"elements": 1000, "stored": 1000, "certain": 10}, None, 100, 1000) == (":sure", 10)


@needs_interpreter
def test_loose_lanes_are_no_bound_where_a_launch_was_not_run():
    """A launch the model cannot run may store anywhere: the loose count is then left out, so
    the count rule never refuses on a partial count."""
    from evaluator import dry_launch

    n = 1 << 12
    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    unrun: list = []
    made = [dry_launch.Launch(_if_loaded, (1,), (x, y, 64), {"BLOCK": 64}),
            dry_launch.Launch(_shifted, (4,), (x, y, n), {"BLOCK": 64})]
    got = dry_launch.stored(made, dry_launch.Budget(60), unrun=unrun)
    assert unrun and "loose" not in got["_if_loaded#0:1"]
    alone = dry_launch.stored(made[1:], dry_launch.Budget(60))
    assert alone["_if_loaded#0:1" if "_if_loaded#0:1" in alone else "_shifted#0:1"]["loose"] == {"4": 256}
