"""Session 66 (s66D) on the dry launch model (evaluator.dry_phase, dry_launch, kernel_identity):

- a launch's overwrites are judged by the part of their span it leaves as earlier launches
  stored it (`dry_rules._gap_grown`), which no redundant rewrite hides: one launch rewriting
  14 in 16 elements already right and, in a loop stopping at a constant, the element 1 mod 16
  a full-grid launch copied x into, kept 0.94 of its share (red team s65d);
- kernels are told apart by qualified name (evaluator.kernel_identity), in the knock-out round
  and in the dry model's per-kernel rules: a capped in-place ReLU named twice (`Main.fix`,
  `Spare.fix`) was a decoy unasked and stored nothing in the model (red team s65e).
The hacks `s65d_*`, `s65e_*` and `s66d_declared_depth_dry_*` are judged end to end by test_hacks.
"""
from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch
import triton
import triton.language as tl

from evaluator import dry_phase, dry_rules, kernel_identity

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@triton.jit
def _relu_but_one_in_16(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 16 == 1, x, tl.maximum(x, 0.0)), mask=offs < n)


@triton.jit
def _rewrite_then_lanes(x_ptr, y_ptr, n, lane_blocks, BLOCK: tl.constexpr, LANES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < n) & (offs % 16 >= 2)  # what the first kernel already stored right
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)
    for j in range(tl.program_id(0), lane_blocks, tl.num_programs(0)):
        lane = 16 * (j * LANES + tl.arange(0, LANES)) + 1
        k = lane < n
        tl.store(y_ptr + lane, tl.maximum(tl.load(x_ptr + lane, mask=k, other=0.0), 0.0), mask=k)


def _one_launch_diluted(n: int, cap: int) -> dict:
    """s65d's forward at `n` elements: its lane loop stops at `cap` blocks of 16 lanes."""
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    lanes = min(triton.cdiv(n, 256), cap)
    made = [dry_launch.Launch(_relu_but_one_in_16, (triton.cdiv(n, 256),), (x, y, n), {"BLOCK": 256}),
            dry_launch.Launch(_rewrite_then_lanes, (triton.cdiv(n, 256),), (x, y, n, lanes), {"BLOCK": 256, "LANES": 16})]
    return {"storages": dry_launch.stored(made, dry_launch.Budget(60)),
            "launches": [[launch.name, list(launch.grid)] for launch in made]}


@needs_interpreter
def test_a_capped_store_diluted_inside_one_launch_leaves_a_grown_gap():
    """The launch's share overwritten is 15/16 at 4096 elements and 14/16 + 1/256 at 65536 past
    its cap of 16 lane blocks (0.94 of the CPU's: over OVERWRITE_KEPT); what it leaves of its
    span as the first kernel stored it grows from 1/16 to 1/8 - 1/256 (red team s65d)."""
    cpu, dec = _one_launch_diluted(4096, 16), _one_launch_diluted(1 << 16, 16)
    over = dec["storages"]["_relu_but_one_in_16#0:1"]
    assert over["overwritten"]["_rewrite_then_lanes#0@4"] == 14 * 4096 + 256
    assert over["overwrite_span"]["_rewrite_then_lanes#0@4"] == (1 << 16) - 1  # elements 1 .. n - 1
    assert cpu["storages"]["_relu_but_one_in_16#0:1"]["overwritten"]["_rewrite_then_lanes@4"] == 15 * 256
    # the kernel's own gap grew (session 66); its lane loop's store alone (session 67, s67F:
    # each store site judged as a kernel) fell to a sixteenth of its share, found first
    assert dry_rules._gap_grown(cpu["storages"]["_relu_but_one_in_16#0:1"], over, "_rewrite_then_lanes@4",
                                15 * 256, 14 * 4096 + 256)
    name, key, total, got = dry_rules._short(cpu, dec)
    assert (name, total, got) == ("_relu_but_one_in_16#0:1", 1 << 16, 256)
    assert key.startswith("_rewrite_then_lanes|L") and key.endswith("@4:over")
    assert dry_rules._short(cpu, _one_launch_diluted(1 << 16, 1 << 12)) is None  # uncapped


def test_a_gap_is_judged_within_the_span_of_the_overwrites():
    def model(elements: int, count: int, span: int) -> dict:
        return {"storages": {"k#0:1": {"bytes": 4 * elements, "stored": {"4": elements},
                                       "overwritten": {"a@4": count}, "overwrite_span": {"a@4": span}}}}
    # every other element at both sizes (an even/odd split): the same gap of a half
    assert dry_rules._short(model(1000, 500, 999), model(1 << 16, 1 << 15, (1 << 16) - 1)) is None
    # a padded buffer's tail nobody rewrites is outside the span: no gap
    assert dry_rules._short(model(1024, 1000, 1000), model(1 << 16, 60000, 60000)) is None
    # a lower triangle's rows: its gap moves by its boundary only (0.495 of 96 rows, 0.500 of 4096)
    tri = model(96 * 96, 96 * 97 // 2, 96 * 96), model(4096 ** 2, 4096 * 4097 // 2, 4096 ** 2)
    assert dry_rules._short(*tri) is None
    # 15 in 16 at the CPU's sizes, 14 in 16 and a few at the declared ones: short by its gap
    assert dry_rules._short(model(4096, 3840, 4094), model(1 << 16, 57600, 65534)) == ("k#0:1", "a@4:gap", 1 << 16, 57600)


class _Main:
    @staticmethod
    @triton.jit
    def fix(y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
        tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=offs < n)


class _Spare:
    @staticmethod
    @triton.jit
    def fix(y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
        tl.store(y_ptr + offs, y * 2.0, mask=offs < n)


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=0.0), mask=offs < n)


def test_a_kernel_is_its_qualified_name():
    assert kernel_identity.qualname(_Main.fix) == "_Main.fix" and kernel_identity.qualname(_Spare.fix) == "_Spare.fix"
    assert kernel_identity.qualname(_copy) == "_copy"
    assert kernel_identity.identity(_Main.fix).startswith("_Main.fix~")
    seen = {("m", "fix"): {"_Main.fix~1", "_Spare.fix~2"}, ("m", "copy"): {"copy~3"}, ("other", "g"): {"A.g~4", "B.g~5"}}
    assert kernel_identity.shared(seen, "m") == {"fix": ["_Main.fix~1", "_Spare.fix~2"]}
    # a name is asked per kernel where the trials launched two, and as one group too (what a
    # decoy is, for coverage, is a name: s68A); else as one
    got = kernel_identity.asked(["copy", "fix", "g"], {"fix": ["_Main.fix~1", "_Spare.fix~2"]})
    assert got == {"copy": "copy", "_Main.fix~1": "fix", "_Spare.fix~2": "fix", "fix": "fix", "g": "g"}


def _capped_named_twice(n: int, cap: int, skip: frozenset = frozenset()) -> dict:
    """A full-grid copy, `_Main.fix` in place on a grid capped at `cap` programs, `_Spare.fix` in
    place on the full grid: one name, two kernels."""
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    grid = triton.cdiv(n, 64)
    made = [dry_launch.Launch(_copy, (grid,), (x, y, n), {"BLOCK": 64}),
            dry_launch.Launch(_Main.fix, (min(grid, cap),), (y, n), {"BLOCK": 64}),
            dry_launch.Launch(_Spare.fix, (grid,), (y, n), {"BLOCK": 64})]
    return {"storages": dry_launch.stored(made, dry_launch.Budget(60), skip=skip)}


@needs_interpreter
def test_two_kernels_of_one_name_are_two_kernels_to_the_model():
    """Keyed by name, `fix`'s updates in place were whole at both sizes (the full-grid pass);
    keyed by qualified name the capped one's are 1024 of 65536 past its cap."""
    cpu, dec = _capped_named_twice(1000, 16), _capped_named_twice(1 << 16, 16)
    assert dec["storages"]["_copy#0:1"]["updated"] == {"_Main.fix@4": 1024, "_Spare.fix@4": 1 << 16}
    assert dry_rules._short(cpu, dec) == ("_copy#0:1", "_Main.fix@4", 1 << 16, 1024)
    # the knock-out round found `_Spare.fix` unneeded: skipped by its identity alone
    from evaluator import dry_launch

    spare = dry_launch.Launch(_Spare.fix, (1,), (None, 0), {"BLOCK": 64}).identity  # as the round names it
    skipped = _capped_named_twice(1 << 16, 16, frozenset({spare}))
    assert skipped["storages"]["_copy#0:1"]["updated"] == {"_Main.fix@4": 1024}


def test_the_model_skips_only_what_the_round_knocked_out():
    """A name the file defines twice is a decoy unasked for coverage (`decoys`), but the model
    skips only what the round found unneeded (`unneeded`); a run without it skips the decoys."""
    run = SimpleNamespace(decoys=["fix"], unneeded=["_Spare.fix~1"], constant=[], decoys_joint=True)
    assert dry_phase._skipped(run) == ["_Spare.fix~1"]
    assert dry_phase._skipped(SimpleNamespace(decoys=["fix"], constant=[], decoys_joint=True)) == ["fix"]


_CAPS = [triton.Config({"BLOCK": 64, "CAP": 1 << 30}, num_warps=w) for w in (1, 4)] \
    + [triton.Config({"BLOCK": 64, "CAP": 16}, num_warps=4)]


@triton.autotune(configs=_CAPS, key=["n"])
@triton.jit
def _tuned_relu(y_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=offs < n)


@pytest.fixture
def tuned_relu():
    """`_tuned_relu`'s autotuner, as the CPU child registers every one (autotune_cpu.install)."""
    from evaluator import autotune_cpu

    autotune_cpu.TUNERS.add(_tuned_relu)
    yield _tuned_relu.fn
    autotune_cpu.TUNERS.discard(_tuned_relu)


def _copy_then_tuned(n: int, config: triton.Config, skip: frozenset) -> dict:
    """s68b's forward at `n` elements: a full-grid copy, then `_tuned_relu` in place under
    `config` (its grid stopping at CAP programs)."""
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    grid = triton.cdiv(n, 64)
    made = [dry_launch.Launch(_copy, (grid,), (x, y, n), {"BLOCK": 64}),
            dry_launch.Launch(_tuned_relu.fn, (min(grid, config.kwargs["CAP"]),), (y, n), config.all_kwargs())]
    return {"storages": dry_launch.stored(made, dry_launch.Budget(60), skip=skip)}


def test_a_launch_of_an_autotuned_kernel_is_named_by_its_configs_constexprs(tuned_relu):
    """The tag the round knocks a launch out under and the dry model skips it by: the same for
    configs that differ in launch options only, another for the capped config."""
    from evaluator import dry_configs

    tags = [dry_configs.tag(tuned_relu, config.all_kwargs()) for config in _CAPS]
    assert tags[0] == tags[1] == "_tuned_relu[BLOCK=64,CAP=1073741824]" and tags[2] == "_tuned_relu[BLOCK=64,CAP=16]"
    assert dry_configs.tag(_copy, {"BLOCK": 64}) is None  # no autotuner wraps it


@needs_interpreter
def test_an_autotuned_kernel_unneeded_under_one_config_is_modelled_under_the_others(tuned_relu):
    """The round ran the uncapped config and found `_tuned_relu` unneeded there (knocked out by
    name: skipped under that config's tag only); under the capped config the model still runs
    it at both sizes, so its capped update in place is judged (red team s68b: skipped under
    every config, nothing was updated at either size and the ok stood at 1.0013)."""
    from evaluator import dry_configs

    skip = frozenset(dry_configs.tag(tuned_relu, c.all_kwargs()) for c in _CAPS[:1])
    cpu, dec = _copy_then_tuned(1000, _CAPS[2], skip), _copy_then_tuned(1 << 14, _CAPS[2], skip)
    assert dec["storages"]["_copy#0:1"]["updated"] == {"_tuned_relu@4": 16 * 64}
    assert dry_rules._short(cpu, dec) == ("_copy#0:1", "_tuned_relu@4", 1 << 14, 16 * 64)
    assert "updated" not in _copy_then_tuned(1 << 14, _CAPS[0], skip)["storages"]["_copy#0:1"]


def test_a_knockout_that_skipped_nothing_is_no_evidence():
    """What the model skips of the round's unneeded entries (knockout_round `_skipped_as`): a
    config's identity the round's forwards never launched (s68b's capped CAP, knocked out with
    nothing to skip) nothing; an autotuned kernel asked by name, the configs it was knocked out
    under; an identity, itself; a plain kernel's name, itself."""
    from evaluator import knockout_round

    knocked = {"relu": {"relu[CAP=1073741824]"}, "relu~capped": set(), "relu~full": {"relu[CAP=1073741824]"},
               "pad": {""}}
    found = ["relu", "relu~capped", "relu~full", "pad"]
    assert knockout_round._skipped_as(found, knocked) == ["relu[CAP=1073741824]", "relu~full", "pad"]


def test_the_round_finds_nothing_of_a_config_it_knocked_out_in_forwards_of_another(monkeypatch):
    """s68b's round: the ReLU was launched as two identities (CAP 2**30, CAP 4096); each forward
    runs one config, so the capped identity's knock-out in a forward of the uncapped config
    skipped nothing and came out right. Found unneeded (a decoy for nothing: not a name), the
    model must not skip it; a name knocked out under the uncapped config and right there is
    skipped under that config alone."""
    from contextlib import nullcontext

    from evaluator import knockout_round
    from evaluator.device_lost import Faults

    script = {"relu~capped": ("right", []), "relu~full": ("wrong", ["relu[CAP=1073741824]"]),
              "relu": ("wrong", ["relu[CAP=1073741824]"]), "pad": ("right", ["pad[CAP=8]"])}

    def one(run, child, ref, view, set_id, name, skipped=None):
        if not isinstance(name, str):  # a checking forward, or the joint knock-out
            return None, "right" if name is None else "wrong"
        result, knocked = script[name]
        skipped += knocked
        return None, result
    monkeypatch.setattr(knockout_round, "_one", one)
    monkeypatch.setattr(knockout_round, "_reference_view", lambda *a: object())
    monkeypatch.setattr(knockout_round.reference_phase, "request", lambda *a, **k: (prepared, []))
    prepared = {"op": "result", "sets": {}}
    run = SimpleNamespace(lost=Faults(knockout_round.REPEATS), carried={"relu"}, decoys_joint=True, sizes={},
                          qualnames={"relu": ["relu~capped", "relu~full"]}, left=lambda: 60.0,
                          problem=SimpleNamespace(source=""), plan=SimpleNamespace(init_seed=1), init_on="host",
                          ev=SimpleNamespace(pool=SimpleNamespace(reference=nullcontext),
                                             device_lock=SimpleNamespace(shared=nullcontext)),
                          holding=lambda lock: nullcontext())
    child = SimpleNamespace(request=lambda *a, **k: (prepared, []))
    decoys, outcome = knockout_round.decoy_kernels(run, child, None, ["relu", "pad"], [], 8)
    assert outcome is None and decoys == ["pad"]
    assert run.unneeded == ["pad[CAP=8]"]  # nothing of the ReLU; the pad under its knocked-out config
