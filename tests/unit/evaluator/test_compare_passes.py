"""compare's fast path over big outputs: several tolerances judged in one pass, and a certain
mismatch described by the elements read (evaluator.compare.fast_matches, _statistics)."""
from __future__ import annotations

import pytest
import torch

from common.config.evaluator import CorrectnessConfig


@pytest.mark.parametrize("case", ["exact", "tf32_sized", "beyond_both", "nan", "inf_for_finite", "same_inf",
                                  "one_far_element", "norm_only"])
def test_one_pass_under_two_tolerances_judges_as_two_passes_would(case, monkeypatch):
    """The strict tolerance and the TF32 contract's are judged in one pass over an output
    (`fast_matches`); each verdict is the one `fast_match` gives alone and agrees with the
    exact float64 judgement wherever the fast one says yes, over several slices."""
    from evaluator import compare as C

    monkeypatch.setattr(C, "_SLICE", 1000)
    g = torch.Generator().manual_seed(3)
    ref = torch.randn(4500, generator=g)
    strict = C.tolerance_for(torch.float32, CorrectnessConfig(), None)
    contract = C.tf32_tolerance(strict, (5e-3, 2e-3, 1e-3))
    out = ref.clone()
    if case == "tf32_sized":  # what a TF32 matmul's rounding does: past strict, within the contract
        out = ref + 5e-4 * torch.randn(4500, generator=g) * ref.abs()
    elif case == "beyond_both":
        out = ref * 1.05
    elif case == "nan":
        out[2100] = float("nan")
    elif case == "inf_for_finite":
        out[10] = float("inf")
    elif case == "same_inf":
        ref[3999], out[3999] = float("inf"), float("inf")
    elif case == "one_far_element":
        out[4400] += 1.0
    elif case == "norm_only":  # every element within the elementwise test, the residual beyond
        signs = torch.randint(0, 2, (4500,), generator=g) * 2.0 - 1.0
        out = ref + signs * (strict.atol + strict.rtol * ref.abs()) * 0.999
    both = C.fast_matches(out, ref, [strict, contract])
    assert both == [C.fast_match(out, ref, strict), C.fast_match(out, ref, contract)]
    for verdict, tol in zip(both, [strict, contract]):
        if verdict:
            assert C._statistics(out, ref, tol, tol.atol) is None
    expected = {"exact": [True, True], "tf32_sized": [False, True], "beyond_both": [False, False],
                "nan": [False, False], "inf_for_finite": [False, False], "same_inf": [True, True],
                "one_far_element": [False, False]}
    if case in expected:
        assert both == expected[case]
    else:
        assert both[0] is False


def test_a_certain_mismatch_is_described_by_the_elements_read_not_a_pass_over_all(monkeypatch):
    """A wrong kernel's 6 GiB output took the float64 statistics ~30 s per trial (149 s for
    one verdict on the H200): once the mismatch is certain the statistics stop, and say how
    much they describe; an output that matches, or fails only in its last slice, is read whole."""
    from evaluator import compare as C
    from evaluator.feedback import mismatch_text

    monkeypatch.setattr(C, "_SLICE", 100)
    monkeypatch.setattr(C, "STATISTICS_ELEMENTS", 300)
    tol = C.tolerance_for(torch.float32, CorrectnessConfig(), None)
    ref = torch.randn(10_000, generator=torch.Generator().manual_seed(5))
    stats = C.compare(ref * 0.5, ref, tol)
    assert stats is not None and stats["judged_elements"] == [300, 10_000]
    assert stats["mismatch_fraction"] > 0.9  # of the elements read
    assert "first 300 of its 10000 elements" in mismatch_text("0", 0, stats)
    late = ref.clone()
    late[-1] += 1.0  # only the last element is wrong: found by reading everything
    stats = C.compare(late, ref, tol)
    assert stats is not None and "judged_elements" not in stats and stats["first_bad_index"] == [9999]
    assert C.compare(ref.clone(), ref, tol) is None
    spiked = ref.clone()
    spiked[:3] += 5e-3  # within a spiked trial's allowance: read whole, and it matches
    assert C.compare(spiked, ref, tol, few=1e-3) is None
