"""aten_facts.values_op: float values PyTorch computes from constants alone are PyTorch's work,
structure (a causal mask, an index table) stays a constant (red team rt65, session 55).

rt65's strict tables (torch.sigmoid over every bfloat16 code, gathered by a Triton kernel at
table[bits(x)]) were refused on the CPU only because construction's (or a kept first
forward's) work was charged to coverage, 9% at the CPU's sizes; beside the GPU's 33M outputs
that charge is a fraction of a percent and the H200 judged them ok at reward 1.41-1.45
(session 54). The refusal here must not depend on that ratio: the end-to-end test judges them
with the strict coverage bar at 0, where only the torch knock-out and the provenance watch can
refuse, and neither traces a kernel (both are dispatch modes, the same on the GPU)."""
from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import pytest
import torch
from conftest import cpu_config, fixture_problem
from torch.utils._python_dispatch import _disable_current_modes

from evaluator import construction_watch as cw
from evaluator.aten_facts import CONSTANT_OPS
from evaluator.forward_watch import Provenance
from evaluator.launch_hook import LaunchRecorder
from evaluator.output_noise import torch_compute_noised

HACKS = Path(__file__).parent / "hacks"


def _window(n: int, w: int) -> torch.Tensor:
    """A sliding-window mask: 5 compute ops summed (`aten_facts.chain_ops`)."""
    d = torch.arange(n)[:, None] - torch.arange(n)[None, :]
    return (d >= 0) & (d < w)


def _chain(n: int, t: torch.Tensor | None = None) -> torch.Tensor:
    """n integer compute ops over an arange (or `t`): a constant up to CONSTANT_OPS."""
    t = torch.arange(64) if t is None else t
    for _ in range(n):
        t = t + 1
    return t


def _structure():
    """What honest strict kernels read that PyTorch made from positions and Python's numbers."""
    n = 8
    return [torch.ones(n, n).triu(1), torch.ones(n, n, dtype=torch.bool).tril(),
            torch.full((n, n), float("-inf")).triu(1),
            torch.zeros(n, n).masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf")),
            torch.where(torch.arange(n)[:, None] >= torch.arange(n)[None, :], 0.0, float("-inf")),
            torch.arange(64, dtype=torch.int32) // 8, torch.arange(64) % 8 * 3 + 1,
            torch.arange(n)[:, None] * n + torch.arange(n)[None, :], torch.arange(16.0).view(4, 4).t().contiguous(),
            _window(n, 3),
            torch.arange(65536, dtype=torch.int32).to(torch.int16).view(torch.bfloat16)]  # codes: a bit view


def _values():
    """Float values PyTorch computed from constants alone: rt65's table and its kin."""
    codes = torch.arange(65536, dtype=torch.int32).to(torch.int16)
    pos = torch.arange(16, dtype=torch.float32)
    return [torch.sigmoid(codes.view(torch.bfloat16)), torch.special.expit(codes.view(torch.float16)),
            (1.0 / (1.0 + torch.exp(-codes.view(torch.bfloat16).float()))).to(torch.bfloat16),
            torch.erf(pos), pos / 16.0, torch.ones(4) * 0.5,
            torch.outer(pos, 1.0 / (10000 ** (torch.arange(0, 8, 2).float() / 8))).cos()]  # a RoPE cache


@pytest.mark.parametrize("which", ["structure", "values"])
def test_the_provenance_watch_marks_values_not_structure(which):
    make = _structure if which == "structure" else _values
    for i in range(len(make())):
        watch = Provenance(LaunchRecorder())
        with watch:
            t = make()[i]
            watch.returned([t])
        returned = watch.report()["returned"]
        assert (returned is None) == (which == "structure"), (which, i, returned)


def test_the_torch_knockout_noises_values_and_keeps_structure():
    expect_structure, expect_values = _structure(), _values()
    with torch_compute_noised(LaunchRecorder()):
        structure, values = _structure(), _values()
    for i, (got, want) in enumerate(zip(structure, expect_structure)):
        assert torch.equal(got.view(torch.uint8), want.view(torch.uint8)), i
    for i, (got, want) in enumerate(zip(values, expect_values)):
        assert not torch.allclose(got.float(), want.float(), equal_nan=True), i


def test_construction_computes_values_and_keeps_structure_and_initialisation():
    with cw.watched() as watch:
        structure = _structure()
        layers = [torch.nn.Linear(16, 16), torch.nn.LayerNorm(8), torch.nn.Embedding(10, 4)]
    assert watch.computed == [] and structure and layers
    with cw.watched() as watch:
        values = _values()
    assert sorted(t.numel() for t in watch.computed) == sorted(t.numel() for t in values)
    # a Triton launch (or any copy) passes it on: construction_watch.launching, glue
    with cw.watched() as watch:
        copy = _values()[0].clone().view(torch.int16).to(torch.int32)
    assert [t.numel() for t in watch.computed] == [copy.numel()]


@pytest.mark.parametrize("n", [CONSTANT_OPS, CONSTANT_OPS + 1])
def test_a_constant_past_the_op_bound_is_values_in_every_watch(n):
    """aten_facts.chain_ops (rt71: a sigmoid table emulated by ~40 integer ops): integer memory
    past CONSTANT_OPS compute ops is PyTorch's in the provenance watch, the torch knock-out
    and at construction."""
    values = n > CONSTANT_OPS
    watch = Provenance(LaunchRecorder())
    with watch:
        watch.returned([_chain(n)])
    assert (watch.report()["returned"] is not None) == values
    with torch_compute_noised(LaunchRecorder()):
        got = _chain(n)
    assert torch.equal(got, _chain(n)) != values
    with cw.watched() as watch:
        kept = _chain(n)
    assert (len(watch.computed) == 1) == values and kept.numel()


@pytest.mark.parametrize("launch", [False, True])
def test_a_launch_at_construction_carries_the_chain(launch):
    """A Triton copy between two short chains is one chain (construction_watch.launching):
    each side alone is under CONSTANT_OPS, together past it."""
    half = CONSTANT_OPS // 2 + 1
    with cw.watched() as watch:
        first = _chain(half)
        copy = torch.empty_like(first)
        with watch.launching(None, (first, copy), {}) if launch else nullcontext(), _disable_current_modes():
            copy.copy_(first)
        kept = _chain(half, copy)
    assert (len(watch.computed) >= 1) == launch and kept.numel()


@pytest.fixture(scope="module")
def no_coverage_bar():
    """Strict with its coverage bar at 0: what refuses is the torch knock-out or the provenance
    watch, never the charge of construction's (or a kept forward's) work to coverage."""
    from evaluator.pipeline import Evaluator

    with Evaluator(cpu_config(children=1, policy={"name": "strict", "strict_min_coverage": 0.0})) as ev:
        yield ev


@pytest.mark.parametrize("stem", ["rt65_init_torch_sigmoid_table_gathered_strict",
                                  "rt65_init_table_laundered_by_triton_copy_strict",
                                  "rt65_first_forward_sigmoid_table_cached_strict",
                                  "rt71_init_small_table_taylor_corrected_strict",
                                  "rt71_integer_emulated_sigmoid_table_no_python_numbers_strict",
                                  "rt71_integer_emulated_table_triton_copy_each_step_strict",
                                  "rt71_integer_emulated_table_first_forward_cached_strict",
                                  "rt74_init_integer_hinge_sigmoid_code_table_strict"])
def test_tables_are_refused_whatever_their_charge(stem, no_coverage_bar, settings):
    verdict = no_coverage_bar.evaluate(fixture_problem("activation/sigmoid_bf16"),
                                       (HACKS / f"{stem}.py").read_text(), settings)
    # the knock-out (torch_computes) or the watch's count of Python values in the forward
    # (host_compute: since session 58 a launch's ints pay for their order, and rt71's per-step
    # copies hand the table's steps as launch ints), never the coverage charge
    refused_by = {"torch_computes", "host_compute"} & set(verdict.hacks)
    assert verdict.status == "hack" and refused_by, (verdict.status, verdict.feedback)


def test_a_coefficient_list_folded_in_by_arithmetic_is_values():
    """Red team rt74: 24 integer hinges `clamp(codes[:, None] - B, 0) * S` over an arange, B and S
    lists of Python's numbers, gave the float32 bits of every bfloat16 code's sigmoid in 7 ops
    and 51 numbers (under both bounds: a constant). Arithmetic folding in more than
    CONSTANT_NUMBERS of Python's numbers makes values; structure's few bounds, and a list only
    placed or chosen from (glue, where), stay constants."""
    from evaluator.aten_facts import CONSTANT_NUMBERS

    def hinges(k):
        codes = torch.arange(32768, dtype=torch.int64)
        b, s = torch.tensor(list(range(15000, 15000 + 64 * k, 64))), torch.tensor([1000] * k)
        return ((codes[:, None] - b).clamp(min=0) * s).sum(1)

    def _construction(make):
        with cw.watched() as watch:
            kept = make()
        return watch, kept

    watch, _ = _construction(lambda: [hinges(CONSTANT_NUMBERS)])
    assert [t.numel() for t in watch.computed] == [32768]
    watch, _ = _construction(lambda: [hinges(2), torch.arange(0, 8, 1)[:, None] * 8 + torch.arange(0, 8, 1),
                                      torch.where(torch.arange(16) < 8, torch.tensor([float(j) for j in range(16)]), 0.0),
                                      torch.cat([torch.tensor([j, j + 1]) for j in range(20)])])
    assert watch.computed == []


def _swin_relative_index(wh: int, ww: int) -> torch.Tensor:
    """Swin Transformer's relative_position_index, as its __init__ writes it: three in-place
    updates of column views (`rel[:, :, 0] += wh - 1`: add_ of a view, then copy_ of it back)."""
    coords = torch.flatten(torch.stack(torch.meshgrid(torch.arange(wh), torch.arange(ww), indexing="ij")), 1)
    rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
    rel[:, :, 0] += wh - 1
    rel[:, :, 1] += ww - 1
    rel[:, :, 0] *= 2 * ww - 1
    return rel.sum(-1)


def test_in_place_updates_of_views_count_each_op_once():
    """aten_facts.chain_ops counts each storage an op touches once (honest round s56m): per
    view, `x[:, 0] += c` counted x's chain twice (add_ reads a view, copy_ writes it back into
    the same storage), doubling at each such line, and Swin's relative position index (5 ops)
    was PyTorch's values at construction: a depthwise conv reading a tap table built so was
    refused under strict (honest/s56m_01). Each op still counts: one in-place op a line past
    CONSTANT_OPS is values."""
    with cw.watched() as watch:
        index = _swin_relative_index(7, 7)
    assert watch.computed == [] and index.shape == (49, 49)

    def columns(n):
        t = torch.arange(64).view(32, 2).contiguous()
        for _ in range(n):
            t[:, 0] += 1
        return t

    for n, values in ((CONSTANT_OPS // 2, False), (CONSTANT_OPS + 1, True)):
        with cw.watched() as watch:
            kept = columns(n)
        assert (len(watch.computed) == 1) == values and kept.numel()
