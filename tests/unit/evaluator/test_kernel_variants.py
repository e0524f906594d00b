"""Session 67 (s67F) on kernel identity (evaluator.kernel_identity) and store sites in the dry
launch model (evaluator.dry_memory, dry_launch, dry_phase):

- a kernel is its qualified name and a digest of its code, closure values, defaults and the
  launch's tl.constexpr values: one `def` launched as a capped max(y, 0) and as a full-grid
  doubling pass (FLOOR, SCALE constexprs) is two kernels to the knock-out round and to the dry
  model's per-kernel rules (red team s67f), as two `def`s are;
- each store site of a kernel (the line of its body it stores from) is judged by the overwrite
  rules as a kernel is: a capped loop's store diluted by a full-grid store of the same kernel
  kept 0.95 of the kernel's share (red team s66d).
The hacks `s66d_*half_diluted*` and `s67f_*` are judged end to end by test_hacks.
"""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl
from conftest import interpreted_child

from evaluator import dry_rules, kernel_identity

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_under_the_interpreter():
    interpreted_child(__file__)


@triton.jit
def _half(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=0.0) * 0.5, mask=offs < n)


@triton.jit
def _fix(y_ptr, n, FLOOR: tl.constexpr, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    y = tl.load(y_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(y, FLOOR) * SCALE, mask=offs < n)


def _variants(n: int, cap: int, chunk: int) -> dict:
    """y = x / 2, `_fix` as max(y, 0) on a grid capped at `cap`, `_fix` as 2y in launches of
    `chunk` elements: one `def`, two kernels."""
    from evaluator import dry_launch

    x, y = torch.empty(n, device="meta"), torch.empty(n, device="meta")
    made = [dry_launch.Launch(_half, (triton.cdiv(n, 64),), (x, y, n), {"BLOCK": 64}),
            dry_launch.Launch(_fix, (min(triton.cdiv(n, 64), cap),), (y, n), {"FLOOR": 0.0, "SCALE": 1.0, "BLOCK": 64})]
    for start in range(0, n, chunk):
        part = y[start:start + chunk]
        made.append(dry_launch.Launch(_fix, (triton.cdiv(part.numel(), 64),), (part, part.numel()),
                                      {"FLOOR": -3.0e38, "SCALE": 2.0, "BLOCK": 64}))
    return {"storages": dry_launch.stored(made, dry_launch.Budget(60)),
            "launches": [[launch.name, list(launch.grid)] for launch in made]}


def test_an_identity_is_the_code_and_the_constexprs_not_the_name():
    relu = kernel_identity.identity(_fix, ((2, "FLOOR", 0.0), (3, "SCALE", 1.0)))
    double = kernel_identity.identity(_fix, ((2, "FLOOR", -3.0e38), (3, "SCALE", 2.0)))
    assert relu.startswith("_fix~") and double.startswith("_fix~") and relu != double
    assert relu == kernel_identity.identity(_fix, ((2, "FLOOR", 0.0), (3, "SCALE", 1.0)))
    assert kernel_identity.identity(_half) != kernel_identity.identity(_fix)
    # a tl.constexpr by its value; an object of the candidate's own class by its class alone
    assert kernel_identity._value(tl.constexpr(3), 0) == "constexpr(3)"

    class Loud:
        def __repr__(self):
            raise AssertionError("the candidate's code ran")

    assert kernel_identity._value(Loud(), 0).endswith("Loud")


def test_a_def_launched_as_two_kernels_is_asked_and_keyed_as_two():
    # the round asks each identity of a name the trials launched as two or more
    assert kernel_identity.asked(["fix", "half"], {"fix": ["fix~a", "fix~b"]}) == \
        {"fix~a": "fix", "fix~b": "fix", "fix": "fix", "half": "half"}  # the name too: a decoy is a name
    many = [f"fix~{i}" for i in range(kernel_identity.MAX_ASKED + 1)]  # past it, one group
    assert kernel_identity.asked(["fix"], {"fix": many}) == {"fix": "fix"}
    # the dry model keys them by the qualified name and by their order of first launch
    launches = [type("L", (), {"qualname": q, "identity": i})() for q, i in
                (("h", "h~0"), ("f", "f~x"), ("f", "f~y"), ("f", "f~x"), ("g", "g~z"))]
    assert kernel_identity.keys(launches) == ["h", ("f", "f~0"), ("f", "f~1"), ("f", "f~0"), "g"]


def test_a_split_key_falls_back_to_its_def_where_the_declared_sizes_launch_one():
    assert dry_rules._got({"f@4": 7}, "f~1@4") == 7  # one identity there: the def's own count
    assert dry_rules._got({"f@4": 7, "f~0@4": 5}, "f~1@4") == 0  # split there too: its own, none
    assert dry_rules._got({"f@4": 7}, "f#1@4") == 0


@needs_interpreter
def test_one_def_as_a_capped_relu_and_a_chunked_pass_is_two_kernels():
    """Keyed by qualified name, `_fix`'s updates in place were whole at both sizes through the
    doubling pass (its launches' count grows with the sizes, so none is judged alone); keyed
    by variant too, the capped ReLU's are 1024 of 65536 past its cap."""
    cpu, dec = _variants(1000, 16, 1 << 12), _variants(1 << 16, 16, 1 << 12)
    updated = dec["storages"]["_half#0:1"]["updated"]
    assert updated == {"_fix@4": 1 << 16, "_fix~0@4": 1024, "_fix~1@4": 1 << 16}
    assert dry_rules._short(cpu, dec) == ("_half#0:1", "_fix~0@4", 1 << 16, 1024)
    assert dry_rules._short(cpu, _variants(1 << 16, 1 << 12, 1 << 12)) is None  # uncapped


def test_a_store_site_is_judged_alone_where_it_spans_the_storage():
    def model(elements: int, over: dict, spans: dict) -> dict:
        return {"storages": {"k#0:1": {"bytes": 4 * elements, "stored": {"4": elements},
                                       "overwritten": over, "overwrite_span": spans}}}
    # s66d: 7/16 rewritten by one store, the elements 1 mod 32 by a capped one
    n, m = 1 << 15, 1 << 25
    cpu = model(n, {"f@4": 15 * n // 32, "f|L9@4": 7 * n // 16, "f|L12@4": n // 32},
                {"f@4": n - 8, "f|L9@4": n - 8, "f|L12@4": n - 31})
    dec = model(m, {"f@4": 7 * m // 16 + (1 << 18), "f|L9@4": 7 * m // 16, "f|L12@4": 1 << 18},
                {"f@4": m - 8, "f|L9@4": m - 8, "f|L12@4": (1 << 23) - 31})
    assert dry_rules._short(cpu, dec) == ("k#0:1", "f|L12@4:over", m, 1 << 18)
    # a scan's first tile stored without a carry: one tile's span, not judged alone
    cpu = model(n, {"f@4": n, "f|L9@4": n - 256, "f|L12@4": 256}, {"f@4": n, "f|L9@4": n - 256, "f|L12@4": 256})
    dec = model(m, {"f@4": m, "f|L9@4": m - 256, "f|L12@4": 256}, {"f@4": m, "f|L9@4": m - 256, "f|L12@4": 256})
    assert dry_rules._short(cpu, dec) is None


@needs_interpreter
def test_a_knocked_out_launch_is_the_kernel_it_skips(launch_recorder):
    """A knock-out's skipped launch is recorded as the kernel it skips, its constexprs included:
    recorded without them, every kernel of every knock-out trial was a second identity of its
    name, the round knocked out each alone and neither's knock-outs were the name's, so a
    padding kernel was no decoy (s67F as merged: test_gates' raising padding)."""
    y = torch.randn(256)
    launch_recorder.start()
    _fix[(4,)](y, 256, FLOOR=0.0, SCALE=1.0, BLOCK=64)
    launch_recorder.suppress = True  # the knock-out trial: every launch skipped
    _fix[(4,)](y, 256, FLOOR=0.0, SCALE=1.0, BLOCK=64)
    launch_recorder.suppress = False
    launch_recorder.stop()
    assert launch_recorder.shared_qualnames(__name__) == {}
    launch_recorder.start()  # the same def under other constexprs: a second kernel
    _fix[(4,)](y, 256, FLOOR=-3.0e38, SCALE=2.0, BLOCK=64)
    launch_recorder.stop()
    assert list(launch_recorder.shared_qualnames(__name__)) == ["_fix"]
