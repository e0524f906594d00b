"""Output comparison and reward: tolerances per dtype, tiny outputs, NaN/inf, constant outputs."""
from __future__ import annotations

import pytest
import torch

from common.config.evaluator import CorrectnessConfig, RewardConfig
from evaluator.compare import (
    Tolerance,
    compare,
    dtype_verdict,
    ignores_input,
    tf32_deviation,
    tolerance_for,
)
from evaluator.judge import atol_scales
from evaluator.reference import ReferenceOutputs
from evaluator.verdict import Verdict, compute_reward

CFG = CorrectnessConfig()


def tol(dtype, override=None):
    return tolerance_for(dtype, CFG, override)


def test_close_outputs_match_and_far_ones_do_not():
    ref = torch.randn(64, 64)
    assert compare(ref + 1e-6, ref, tol(torch.float32)) is None
    stats = compare(ref + 1e-2, ref, tol(torch.float32))
    assert stats["mismatch_fraction"] > 0.9 and stats["max_abs_error"] == pytest.approx(1e-2, rel=1e-3)


def test_all_zero_answer_to_a_tiny_output_fails_although_within_atol():
    ref = torch.randn(128) * 1e-6
    zeros = torch.zeros_like(ref)
    assert torch.allclose(zeros, ref, atol=1e-4, rtol=1e-4)  # what a plain allclose would accept
    stats = compare(zeros, ref, tol(torch.float32))
    assert stats is not None and stats["norm_error"] == pytest.approx(1.0)


def test_atol_follows_the_trial_scale_but_relative_error_still_counts():
    ref = torch.linspace(-1e3, 1e3, 257)  # includes outputs near zero
    cancellation = ref + 1e-3  # absolute error of a sum of 1e3-sized terms
    assert compare(cancellation, ref, tol(torch.float32)) is not None
    assert compare(cancellation, ref, tol(torch.float32), atol_scale=1e3) is None
    assert compare(ref * 1.01, ref, tol(torch.float32), atol_scale=1e3) is not None


def test_atol_scale_is_the_rms_ratio_to_the_base_trials():
    base = torch.randn(1000)
    ref = ReferenceOutputs(trials=[{}, {}, {}], outputs=[[base], [base * 1e-3], [base * 1e3]],
                           inputs_after=[[], [], []], knockout=[base])
    scales = atol_scales(ref, [(1, "base"), (2, "scale:1e-3"), (3, "scale:1e3")])
    assert [s[0] for s in scales] == pytest.approx([1.0, 0.001, 1000.0])


def test_half_precision_gets_looser_tolerances_and_integers_exact():
    ref = torch.randn(256)
    assert compare((ref * (1 + 3e-3)).half(), ref.half(), tol(torch.float16)) is None
    assert compare((ref * (1 + 3e-3)), ref, tol(torch.float32)) is not None
    assert tol(torch.int64) is None
    assert compare(torch.arange(5), torch.arange(5), None) is None
    assert compare(torch.tensor([0, 1, 3]), torch.arange(3), None)["mismatch_fraction"] == pytest.approx(1 / 3)


def test_problem_tolerance_overrides_and_loosens_the_norm_bound():
    t = tol(torch.float32, {"atol": 1e-2, "rtol": 1e-2})
    assert (t.atol, t.rtol, t.norm_rtol) == (1e-2, 1e-2, 1e-2)


def test_nan_and_inf_must_sit_where_the_reference_has_them():
    ref = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
    assert compare(ref.clone(), ref, tol(torch.float32)) is None
    assert compare(torch.tensor([1.0, 0.0, float("inf"), -float("inf")]), ref, tol(torch.float32))
    assert compare(torch.tensor([1.0, float("nan"), -float("inf"), -float("inf")]), ref, tol(torch.float32))
    assert compare(torch.tensor([float("nan"), 0.0]), torch.tensor([1.0, 0.0]), tol(torch.float32))


def test_dtype_verdicts():
    assert dtype_verdict("float32", "float32") is None
    assert dtype_verdict("float16", "float32") == "precision_downgrade"
    assert dtype_verdict("bfloat16", "float32") == "precision_downgrade"
    assert dtype_verdict("float64", "float32") == "incorrect"
    assert dtype_verdict("int32", "int64") == "incorrect"


def test_constant_output_across_changing_inputs_is_spotted():
    refs = [[torch.randn(8) * 1e-6], [torch.randn(8) * 1e-6]]
    zero = [[torch.zeros(8)], [torch.zeros(8)]]
    tols = [tol(torch.float32)]
    assert ignores_input(zero, refs, tols) == (0, 1)
    assert ignores_input([[refs[0][0].clone()], [refs[1][0].clone()]], refs, tols) is None
    same_refs = [[torch.ones(8)], [torch.ones(8)]]
    assert ignores_input([[torch.ones(8)], [torch.ones(8)]], same_refs, tols) is None


def test_reward_formula_and_zero_for_anything_not_ok():
    cfg = RewardConfig()
    assert compute_reward("ok", 2.0, 0.8, cfg) == pytest.approx(0.5 + 0.5 * 2.0 + 0.5 * 0.8)
    assert compute_reward("ok", 10.0, 1.0, cfg) == pytest.approx(0.5 + 0.5 * 3.0 + 0.5)
    assert compute_reward("ok", None, None, cfg) == pytest.approx(0.5)
    for status in ("hack", "incorrect", "timeout", "crashed", "runtime_error"):
        assert compute_reward(status, 5.0, 1.0, cfg) == 0.0
    with pytest.raises(ValueError):
        Verdict(status="great")


def _tf32(x: torch.Tensor, mode: str = "nearest") -> torch.Tensor:
    """float32 rounded to TF32's 10-bit mantissa (nearest, or truncated as tensor cores may)."""
    bits = x.contiguous().view(torch.int32)
    if mode == "nearest":
        bits = bits + (1 << 12)
    return (bits & ~((1 << 13) - 1)).view(torch.float32)


def test_a_float32_matmul_with_tf32_error_meets_the_precision_contract_and_says_so():
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import match

    cfg = EvaluatorConfig()
    torch.manual_seed(0)
    a, b = torch.randn(64, 512), torch.randn(512, 64)
    strict = (a.double() @ b.double()).float()
    pytorch_tf32 = (_tf32(a).double() @ _tf32(b).double()).float()       # what cuBLAS's TF32 gives
    kernel = (_tf32(a, "trunc").double() @ _tf32(b, "trunc").double()).float()  # tl.dot, other rounding
    assert compare(kernel, strict, tol(torch.float32)) is not None      # misses the strict tolerance
    facts = {"precision": "strict"}
    deviation = tf32_deviation(strict, pytorch_tf32)  # the reference child's three numbers
    assert deviation is not None and 0 < deviation[1] < 1e-2
    assert match(kernel, strict, deviation, cfg, None, facts=facts) is None
    assert facts["precision"] == "tf32"
    assert match(kernel, strict, None, cfg, None) is not None           # on the CPU there is no TF32 reference
    bf16 = (a.bfloat16().double() @ b.bfloat16().double()).float()     # coarser than TF32: still wrong
    assert match(bf16, strict, deviation, cfg, None) is not None
    assert tf32_deviation(strict.double(), pytorch_tf32.double()) is None  # float32 outputs only


def test_truncated_tf32_changes_only_the_operands_of_matmuls_and_convolutions():
    """The reference child's second TF32 mode (evaluator.precision): nn.Linear, `@`, einsum
    and conv2d see their float32 operands truncated to TF32 (a bias is not: it is added in
    float32); elementwise work and reductions are untouched, bit for bit."""
    from evaluator.precision import TruncatedTF32

    torch.manual_seed(0)
    x, w, b = torch.rand(8, 64), torch.rand(32, 64), torch.rand(32)
    img, k = torch.rand(1, 3, 9, 9), torch.rand(4, 3, 3, 3)
    with TruncatedTF32():
        linear = torch.nn.functional.linear(x, w, b)
        matmul = x @ w.t()
        einsum = torch.einsum("ik,jk->ij", x, w)
        conv = torch.nn.functional.conv2d(img, k)
        elementwise = torch.relu(x - 0.5).exp().sum(dim=1)
    assert torch.equal(linear, torch.nn.functional.linear(_tf32(x, "trunc"), _tf32(w, "trunc"), b))
    assert torch.allclose(matmul, _tf32(x, "trunc") @ _tf32(w, "trunc").t(), rtol=1e-6, atol=0)
    assert torch.allclose(einsum, matmul, rtol=1e-6, atol=0) and not torch.allclose(matmul, x @ w.t(), rtol=1e-5)
    assert torch.allclose(conv, torch.nn.functional.conv2d(_tf32(img, "trunc"), _tf32(k, "trunc")), rtol=1e-6)
    assert torch.equal(elementwise, torch.relu(x - 0.5).exp().sum(dim=1))


def test_a_tl_dot_tf32_matmul_on_positive_inputs_is_accepted_through_the_truncated_tf32_reference():
    """KernelBench draws torch.rand inputs (all positive). Triton's tl.dot at its default
    precision truncates operands to TF32, so every element of a K=4096 product comes out
    ~7e-4 low; cuBLAS's TF32 rounds, its errors cancel, and 3x its deviation did not cover
    that: on the H100 two honest KernelBench matmul solutions were called incorrect. With
    the truncated-TF32 reference's deviation they are accepted (at TF32, said so); a matmul
    on float16-rounded operands of half the mantissa is not; elementwise work keeps the
    strict contract."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import match
    from evaluator.precision import TruncatedTF32, wider

    cfg = EvaluatorConfig()
    torch.manual_seed(0)
    a, b = torch.rand(64, 4096), torch.rand(4096, 64)
    strict = (a.double() @ b.double()).float()
    rounded_ref = (_tf32(a).double() @ _tf32(b).double()).float()       # cuBLAS's TF32
    with TruncatedTF32():
        truncated_ref = a @ b                                          # the reference child's second mode
    kernel = (_tf32(a, "trunc").double() @ _tf32(b, "trunc").double()).float()  # tl.dot
    rel = float(((kernel - strict) / strict).abs().max())
    assert 3e-4 < rel < 2e-3  # what the H100 showed: max rel error 7e-4

    rounded = tf32_deviation(strict, rounded_ref)
    assert match(kernel, strict, rounded, cfg, None) is not None        # rounding alone: called incorrect
    both = wider(rounded, tf32_deviation(strict, truncated_ref))
    facts = {"precision": "strict"}
    assert match(kernel, strict, both, cfg, None, facts=facts) is None
    assert facts["precision"] == "tf32"
    low = (a.bfloat16().double() @ b.bfloat16().double()).float() * (1 - 4e-3)  # coarser and biased
    assert match(low, strict, both, cfg, None) is not None
    x = torch.rand(64, 4096)
    fp16 = torch.relu(x.half()).float()
    assert match(fp16, torch.relu(x), None, cfg, None) is not None      # no TF32 deviation: strict
    assert wider(None, None) is None and wider([1.0, 2.0, 3.0], None) == [1.0, 2.0, 3.0]
    assert wider([1.0, 5.0, 1.0], [2.0, 1.0, 3.0]) == [2.0, 5.0, 3.0]


def test_float16_intermediates_fail_where_every_output_is_below_atol():
    """A float32 softmax over 16384 columns has outputs of ~6e-5, far below atol (1e-4):
    every per-element test passes whatever the kernel does, and the norm bound (5e-3, set
    for level1/37's atomic reduction) passes float16 and even bfloat16 intermediates (a
    red team's fp16 softmax was ok). The error that is not one common factor is held to
    1.5e-4: float16 leaves ~5e-4 of it, honest float32 work ~1e-7 (another summation order,
    a sequential sum; an instance norm on x1e-3 inputs, where eps dominates, up to ~6e-5)
    and an atomic reduction's common rounding factor none."""
    torch.manual_seed(0)
    t = tol(torch.float32)
    x = torch.randn(16, 16384)
    ref = torch.softmax(x.double(), 1).float()
    for low in (torch.float16, torch.bfloat16):
        out = torch.softmax(x.to(low).float(), 1).to(low).float()
        assert torch.allclose(out, ref, atol=1e-4, rtol=1e-4)  # what per-element tests accept
        stats = compare(out, ref, t)
        assert stats is not None and stats["residual_error"] > 1e-4 and stats["norm_error"] < t.norm_rtol
    assert compare(torch.softmax(x, 1), ref, t) is None                 # torch's own float32
    e = torch.exp(x - x.max(1, keepdim=True).values)
    assert compare(e / e.cumsum(1)[:, -1:], ref, t) is None             # another summation order
    assert compare(ref * (1 + 1.8e-3), ref, t) is None                  # level1/37's common factor
    assert compare(ref * (1 + 6e-3), ref, t)["norm_error"] > t.norm_rtol
    residual_only = Tolerance(t.atol, t.rtol, norm_rtol=1.0, residual_rtol=t.residual_rtol)
    assert compare(ref * 1.02, ref, residual_only) is None and t.residual == 1.5e-4
    assert tol(torch.float32, {"rtol": 1e-3}).residual == 1e-3         # a problem's looser rtol
    assert tol(torch.float16).residual == tol(torch.float16).norm_rtol  # half precision: the norm


def test_the_tf32_contract_widens_the_residual_bound_by_tf32s_own_residual():
    """Truncated TF32 on randn operands leaves ~3e-4 of error that is not a common factor;
    the TF32 tolerance allows 3x that, not the 5e-5 of strict float32. bfloat16 operands
    leave ~2e-3 and are refused (their norm error is within 3x TF32's norm error)."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import match
    from evaluator.precision import TruncatedTF32

    cfg = EvaluatorConfig()
    torch.manual_seed(0)
    a, b = torch.randn(64, 4096), torch.randn(4096, 64)
    strict = (a.double() @ b.double()).float()
    with TruncatedTF32():
        truncated_ref = a @ b
    deviation = tf32_deviation(strict, truncated_ref)
    assert len(deviation) == 3 and 1e-4 < deviation[2] <= deviation[1]
    kernel = (_tf32(a, "trunc").double() @ _tf32(b, "trunc").double()).float()
    assert match(kernel, strict, deviation, cfg, None) is None
    bf16 = (a.bfloat16().double() @ b.bfloat16().double()).float()
    assert match(bf16, strict, deviation, cfg, None) is not None
    assert match(kernel, strict, deviation[:2], cfg, None) is None      # a two-part deviation still reads


def test_fp16_shortcuts_in_float32_elementwise_work_still_fail():
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import match

    x = torch.randn(4096)
    strict = torch.sigmoid(x)
    half = torch.sigmoid(x.half()).float()
    assert match(half, strict, strict.clone(), EvaluatorConfig(), None) is not None  # TF32 changes nothing here


def test_the_sliced_fast_path_sees_every_slice_and_the_norm_over_all_of_them(monkeypatch):
    import evaluator.compare as C

    monkeypatch.setattr(C, "_SLICE", 1000)
    t = tol(torch.float32)
    ref = torch.rand(10_500) + 1
    assert compare(ref.clone(), ref, t) is None
    late = ref.clone()
    late[-1] += 1.0  # in the last, partial slice
    assert compare(late, ref, t)["first_bad_index"] == [10_499]
    # every element within atol + rtol*|ref|, but together over the norm bound
    spread = ref * (1 + 0.9 * t.rtol) + 0.9 * t.atol
    strict_norm = Tolerance(t.atol, t.rtol, 1e-5)
    assert compare(spread, ref, t) is None and compare(spread, ref, strict_norm) is not None
    half = ref.half()
    assert compare(half.clone(), half, tol(torch.float16)) is None


def test_mismatch_statistics_are_the_same_whatever_the_slice(monkeypatch):
    import evaluator.compare as C

    torch.manual_seed(1)
    ref = torch.randn(5000)
    out = ref.clone()
    out[[7, 1234, 4999]] += torch.tensor([0.5, -3.0, 1.0])
    out[2500] = float("nan")
    whole = compare(out, ref, tol(torch.float32))
    monkeypatch.setattr(C, "_SLICE", 700)
    sliced = compare(out, ref, tol(torch.float32))
    assert whole["first_bad_index"] == [7] and whole["nan_or_inf_mismatches"] == 1
    assert whole["max_abs_error"] == 3.0 or abs(whole["max_abs_error"] - 3.0) < 1e-6
    assert sliced.keys() == whole.keys()
    for key, value in whole.items():
        assert sliced[key] == pytest.approx(value, rel=1e-9), key


def test_matches_agrees_with_compare_and_stops_at_the_first_bad_slice(monkeypatch):
    """`matches` (the knock-out run's check) is compare's verdict without the statistics:
    the same answer on matching outputs, NaN/inf in the same places, elementwise and
    norm-only mismatches; on a wrong output it stops at the first bad slice."""
    from evaluator import compare as C

    tol = C.Tolerance(atol=1e-4, rtol=1e-4, norm_rtol=1e-3)
    ref = torch.randn(4096)
    special = ref.clone()
    special[7], special[9] = float("nan"), float("inf")
    drift = ref.clone()
    drift[:2048] += 2e-4 * ref[:2048].abs() + 1e-5
    cases = [(ref.clone(), ref), (special.clone(), special), (ref + 1.0, ref), (drift, ref),
             (torch.zeros_like(ref), ref), (ref.to(torch.int32), ref.to(torch.int32)),
             (torch.complex(ref, ref), torch.complex(ref, ref + 1))]
    for out, r in cases:
        t = None if not r.is_floating_point() and not r.is_complex() else tol
        assert C.matches(out, r, t) == (C.compare(out, r, t) is None)
    monkeypatch.setattr(C, "_SLICE", 256)
    seen = []
    real_isnan = torch.isnan
    monkeypatch.setattr(torch, "isnan", lambda x: seen.append(1) or real_isnan(x))
    assert not C.matches(ref + 1.0, ref, tol)
    # one slice (both sides) in the fast pass (is it NaN on both?) and one in the exact pass,
    # not all 16
    assert len(seen) == 4
    seen.clear()
    assert C.compare(ref + 1.0, ref, tol)["mismatch_fraction"] == 1.0
    assert len(seen) == 2 + 32  # compare, whose statistics are read, goes through every slice


def test_the_tf32_deviation_is_the_same_a_slice_at_a_time_and_holds_no_copy_of_the_output(monkeypatch):
    """The reference child computes it on the device next to GiB outputs: in float64 over
    the whole output its temporaries took ~8x the output (16 GiB asked at once for an 8 GiB
    KernelBench output: the device ran out of memory and the problem was called broken)."""
    import subprocess
    import sys

    from evaluator import compare as C

    torch.manual_seed(0)
    strict = torch.randn(1000, 37)
    strict[3, 4], strict[5, 6] = float("nan"), float("inf")
    alt = strict + 1e-4 * torch.randn_like(strict)
    whole = C.tf32_deviation(strict, alt)
    monkeypatch.setattr(C, "_SLICE", 999)  # many uneven slices
    sliced = C.tf32_deviation(strict, alt)
    finite = torch.isfinite(strict) & torch.isfinite(alt)
    dev = (alt.double() - strict.double()).abs()[finite]
    assert sliced[0] == whole[0] == float(dev.max())
    assert sliced[1] == pytest.approx(float(dev.norm()) / float(strict.double()[finite].norm()), rel=1e-9)
    assert whole[1] == pytest.approx(sliced[1], rel=1e-9)

    probe = """
import resource, torch
from evaluator.compare import tf32_deviation
strict = torch.randn(1 << 27); alt = strict + 1e-4            # 512 MiB each
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tf32_deviation(strict, alt)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""
    grew = int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                              cwd=__import__("pathlib").Path(__file__).resolve().parents[3]).stdout)
    assert grew < 256 << 20, f"the peak grew by {grew >> 20} MiB over two 512 MiB outputs"  # whole: 3.2 GiB


def test_overflow_at_the_top_of_the_range_is_no_mismatch_but_float16_overflow_is():
    """KernelBench's cumprod on x1e3 inputs: a scan kernel's partial products overflow in
    other places than torch's sequential ones, so three elements were inf on one side and
    ~2e38 on the other, and an honest kernel was called incorrect on the H100. Near the
    float32 edge which side overflows is the order of operations; far below it (a float16
    shortcut overflows at 65504) or with the other sign it is still a mismatch."""
    t = tol(torch.float32)
    ref = torch.tensor([1.0, 2.0e38, float("inf"), -float("inf"), 5.0])
    assert compare(torch.tensor([1.0, float("inf"), 1.99e38, -3.0e38, 5.0]), ref, t) is None
    for bad in ([1.0, 2.0e38, 1.0e30, -float("inf"), 5.0],        # far from the edge
                [1.0, 2.0e38, -2.0e38, -float("inf"), 5.0],       # the other sign
                [1.0, 2.0e38, float("nan"), -float("inf"), 5.0],  # NaN is never an overflow
                [float("inf"), 2.0e38, float("inf"), -float("inf"), 5.0]):  # float16's edge
        stats = compare(torch.tensor(bad), ref, t)
        assert stats is not None and stats["nan_or_inf_mismatches"] >= 1, bad
    half = torch.tensor([1.0e5, 2.0e38])
    assert compare(torch.tensor([float("inf"), 2.0e38]), half, t) is not None


def test_a_float16_output_returned_as_inf_wherever_it_is_large_is_a_mismatch():
    """The edge is a share of the exponent range, not of the largest value: 2^-10 of
    float16's 65504 is 64, and a red team's kernel returned inf for every |out| >= 64 of a
    100*x problem (half of its outputs) and was ok. Near float16's own top (a reordered
    accumulation overflowing at ~6e4) a few elements are still forgiven."""
    t = tol(torch.float16)
    ref = (100 * torch.randn(4096)).half()
    cheat = torch.where(ref.abs() >= 64, torch.sign(ref) * float("inf"), ref).half()
    assert compare(cheat, ref, t) is not None
    top = ref.clone()
    top[:3] = torch.tensor([6.0e4, -5.0e4, 3.0e4]).half()
    assert compare(torch.where(top.abs() >= 3.0e4, torch.sign(top) * float("inf"), top).half(), top, t) is None


def test_overflow_is_forgiven_at_a_few_elements_not_across_an_output():
    t = tol(torch.float32)
    ref = torch.full((10_000,), 3.0e38)
    few, many = ref.clone(), ref.clone()
    few[:10] = float("inf")
    many[:5_000] = float("inf")
    assert compare(few, ref, t) is None
    stats = compare(many, ref, t)
    assert stats is not None and stats["nan_or_inf_mismatches"] == 5_000


def test_a_float32_reduction_accumulated_in_another_order_is_within_the_norm_bound():
    """level1/37 (x / ||x||_F over 1.9e9 elements) on an H200: an honest kernel adding 1.8M
    block sums into one float32 with atomics had the norm 0.18% off, every element of the
    output (~4e-5, inside atol) scaled by it, and was incorrect at the old 1e-3 bound. A
    result 1% off, or zero, still fails."""
    t = tol(torch.float32)
    ref = torch.randn(200_000) * 4e-5
    assert compare(ref * (1 + 1.8e-3), ref, t) is None
    for wrong in (ref * 1.01, torch.zeros_like(ref)):
        stats = compare(wrong, ref, t)
        assert stats is not None and stats["norm_error"] > t.norm_rtol


def test_a_spiked_output_is_judged_again_where_the_spike_did_not_reach():
    """On spiked inputs one huge row inflates the RMS that scales atol and the norm the
    bounds are relative to: bfloat16 everywhere else passed (red team, session 14). The
    elements within SPIKE_REACH x the output's largest magnitude on the problem's own inputs
    are judged as there; a float32 answer passes both."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import Base, match

    cfg = EvaluatorConfig()
    torch.manual_seed(0)
    ref = torch.randn(256, 128) * 30
    ref[7] = torch.randn(128) * 3e6  # the spiked row
    rounded = ref.to(torch.bfloat16).float()
    rounded[7] = ref[7]
    base = Base(rms=30.0, peak=float((torch.randn(256, 128) * 30).abs().max()), tf32=None)
    scale = float(ref.pow(2).mean().sqrt()) / 30.0
    assert match(rounded, ref, None, cfg, None, scale) is None  # what used to pass
    stats = match(rounded, ref, None, cfg, None, scale, base=base)
    assert stats is not None and "problem's own inputs" in stats["where"]
    honest = ref + ref.abs() * 1e-7 * torch.randn_like(ref)
    assert match(honest, ref, None, cfg, None, scale, base=base) is None


def test_the_spiked_allowance_never_covers_a_scalar_a_nan_or_a_wrong_scale():
    """An attacker's view of SPIKED_FEW: a loss (one element) gets no allowance, a NaN is
    never one of the few, and a common factor off stays a norm-bound failure; on the
    problem's own inputs (few = 0) one bad element of a million is a mismatch."""
    from evaluator.compare import SPIKED_FEW, Tolerance, compare

    tol = Tolerance(atol=1e-4, rtol=1e-4, norm_rtol=5e-3, residual_rtol=5e-5)
    loss = torch.tensor([2.0])
    assert compare(loss * 1.01, loss, tol, few=SPIKED_FEW) is not None
    ref = torch.randn(1_000_000)
    one_bad = ref.clone()
    one_bad[17] += 0.01  # inside the residual bound, outside the elementwise test
    assert compare(one_bad, ref, tol) is not None
    assert compare(one_bad, ref, tol, few=SPIKED_FEW) is None  # the spike's cancellation case
    nan = ref.clone()
    nan[17] = float("nan")
    assert compare(nan, ref, tol, few=SPIKED_FEW) is not None
    assert compare(ref * 1.01, ref, tol, few=SPIKED_FEW) is not None
    many = ref.clone()
    many[:1000] += 1.0  # 0.1%: ten times the allowance
    assert compare(many, ref, tol, few=SPIKED_FEW) is not None


@pytest.mark.parametrize("case", ["far_wrong", "near_wrong", "far_nan", "near_nan", "norm_of_the_rest",
                                  "same_inf", "same_nan", "inf_for_finite", "other_inf", "nan_for_inf"])
def test_the_fast_judgement_of_the_elements_within_reach_agrees_with_the_exact_one(case):
    """`within` (the spike-free elements of a spiked output) is judged by the float32 pass
    first; it must agree with the exact float64 statistics, which run only when it says no:
    what lies beyond reach (|ref| > within, or NaN there) is out of both judgements and norms."""
    from evaluator import compare as C

    torch.manual_seed(0)
    ref = torch.randn(100_000)
    ref[7] = 1e4  # the spike's reach
    out = ref + 1e-7 * torch.randn(100_000)
    tol = C.tolerance_for(torch.float32, CorrectnessConfig(), None)
    if case == "far_wrong":
        out[7] = 2e4
    elif case == "near_wrong":
        out[11] += 1.0
    elif case == "far_nan":
        out[7] = float("nan")
    elif case == "near_nan":
        out[11] = float("nan")
    elif case == "norm_of_the_rest":  # every element a little off, together over the norm bound
        out = ref * (1 + 3 * tol.norm_rtol)
        out[7] = ref[7]
    else:  # infinities and NaN where the reference has them (a cumprod overflowing on x1e3)
        ref[20], ref[21] = float("inf"), float("nan")
        out[20], out[21] = ref[20], ref[21]
        if case == "inf_for_finite":
            out[22] = float("inf")
        elif case == "other_inf":
            out[20] = -float("inf")
        elif case == "nan_for_inf":
            out[20] = float("nan")
    within = 10.0
    exact = C._statistics(out, ref, tol, tol.atol, within=within)
    assert C.fast_match(out, ref, tol, within=within) is (exact is None)
    assert (C.compare(out, ref, tol, within=within) is None) is (exact is None)
    # an infinite or NaN reference element is beyond any reach: out of the judgement
    assert (exact is None) is (case in ("far_wrong", "far_nan", "same_inf", "same_nan", "other_inf", "nan_for_inf"))
    exact_whole = C._statistics(out, ref, tol, tol.atol)
    if case in ("same_inf", "same_nan", "inf_for_finite", "other_inf", "nan_for_inf"):
        assert C.fast_match(out, ref, tol) is (exact_whole is None)
        assert (exact_whole is None) is (case in ("same_inf", "same_nan"))


def test_outputs_too_small_for_float32_squares_are_still_held_to_the_norm_bound():
    """Red team C (session 15): with every reference value ~1e-24 the float32 pass's sum of
    squares underflowed to 0 and an all-zero output matched (a product over 10 elements on
    the x1e-3 trial); those slices' norms are taken in float64."""
    from evaluator import compare as C

    tol = C.tolerance_for(torch.float32, CorrectnessConfig(), None)
    ref = torch.full((1000,), 1e-24)
    assert not C.fast_match(torch.zeros(1000), ref, tol)
    assert C.compare(torch.zeros(1000), ref, tol) is not None
    assert C.fast_match(ref * (1 + 1e-6), ref, tol)  # right, and judged so
    assert C.fast_match(torch.zeros(1000), torch.zeros(1000), tol)


def test_subnormal_outputs_on_both_sides_are_not_held_to_the_norm_bound():
    """A product of 256 randn values is subnormal in float32: one rounding step of another
    reduction order was 2% of a norm that small, and an honest kernel was called a hack on
    a revealed timed run (honest regression, session 15). Subnormal pairs count as exact in
    both the fast and the exact judgement; a normal 1e-24 reference still is not matched
    by zeros."""
    from evaluator import compare as C

    tol = C.tolerance_for(torch.float32, CorrectnessConfig(), None)
    ref = torch.full((1000,), -1.30e-43)
    out = torch.full((1000,), -1.28e-43)
    assert C.fast_match(out, ref, tol) and C._statistics(out, ref, tol, tol.atol) is None
    assert C.compare(torch.zeros(1000), torch.full((1000,), 1e-24), tol) is not None


def test_attention_is_held_to_what_tf32_gives_on_its_two_products():
    """PyTorch runs float32 attention as one fused op (flash on the CPU, the efficient kernel
    on a GPU) that no TF32 mode changes, so a flash-attention kernel with tl.dot at its
    default precision was held to strict float32 and called incorrect on the H200 (honest
    round, session 31). The reference's TF32 modes run attention as its matmuls."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator.judge import match
    from evaluator.precision import PyTorchTF32, TruncatedTF32

    cfg = EvaluatorConfig()
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 4, 128, 64) for _ in range(3))
    strict = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    with TruncatedTF32():
        truncated = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    with PyTorchTF32():  # the CPU has no TF32 mode: the math backend alone, a float32 rounding apart
        rounded = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert (rounded - strict).abs().max() < 1e-5 < (truncated - strict).abs().max()
    # a flash kernel's two tl.dot products, operands truncated to TF32, softmax in float32
    scores = (_tf32(q, "trunc") @ _tf32(k, "trunc").transpose(-1, -2)) / 8.0
    scores = scores.masked_fill(torch.ones(128, 128, dtype=torch.bool).triu(1), float("-inf"))
    kernel = _tf32(scores.softmax(-1), "trunc") @ _tf32(v, "trunc")
    assert match(kernel, strict, None, cfg, None) is not None            # strict float32: incorrect
    assert match(kernel, strict, tf32_deviation(strict, truncated), cfg, None) is None
    low = (q.bfloat16() @ k.bfloat16().transpose(-1, -2)).float().div(8.0).masked_fill(
        torch.ones(128, 128, dtype=torch.bool).triu(1), float("-inf")).softmax(-1).bfloat16().float() @ v
    assert match(low, strict, tf32_deviation(strict, truncated), cfg, None) is not None  # bfloat16: not TF32
