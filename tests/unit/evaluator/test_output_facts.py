"""The facts of a reference output the worker judges by besides its elements
(evaluator.output_facts): measured where the output was made, the same as on the host."""
from __future__ import annotations

import pytest
import torch

from evaluator import output_facts as F


def test_the_rms_of_an_output_with_infinities_is_that_of_its_finite_elements(monkeypatch):
    """A cumprod overflows on x1e3 inputs: its atol scale is the RMS of what stayed finite,
    computed a slice at a time (a masked float64 copy of a 4 GiB output was 8 GiB)."""
    monkeypatch.setattr(F, "_SLICE", 3)
    t = torch.tensor([float("inf"), 3.0, 4.0, float("nan"), -float("inf"), 0.0, 0.0, 0.0])
    assert F.rms(t) == pytest.approx(((9 + 16) / 5) ** 0.5)
    assert F.rms(torch.tensor([float("inf"), float("nan")])) == 0.0


@pytest.mark.parametrize("t", [
    torch.tensor([1.0, -7.5, 2.0]), torch.tensor([1.0, float("nan"), -3.0]),
    torch.tensor([float("inf"), 2.0]), torch.zeros(0), torch.arange(5),
    torch.tensor([1 + 2j, 3 - 1j]), torch.tensor([1 + 2j, complex("nan")]),
    torch.tensor([0.5, -4.0], dtype=torch.bfloat16)], ids=str)
def test_one_pass_gives_the_same_peak_and_finiteness_as_each_alone(t, monkeypatch):
    """output_facts takes peak and finiteness from one aminmax pass per chunk (chunks of 2
    here): the same as asking each, for integer, complex, empty and non-finite tensors."""
    monkeypatch.setattr(F, "_CHUNK", 2)
    facts = F.output_facts(t)
    assert facts == {"rms": F.rms(t), "peak": F.peak(t), "finite": F.all_finite(t)}
    finite = t[torch.isfinite(t)] if t.is_floating_point() else None
    assert facts["finite"] is bool(torch.isfinite(t).all())
    if finite is not None:
        assert facts["peak"] == (float(finite.abs().max()) if finite.numel() else 0.0)
