"""The kept-output check (evaluator.kept_outputs in the candidate child, evaluator.kept_check in
the worker): memory a module keeps and returns from call to call is filled with noise before the
child's last forward, and what that forward returns must not still hold the noise.

The tests here run both halves in this process on plain PyTorch modules (the child's fill and
description, the worker's regeneration and count); the whole path runs in the corpora: red team
s69H's kept causal softmax in hacks/, the honest reused buffer and the honest state read back in
honest_builtin/ (s63d_01, s70a_01)."""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn
from conftest import fixture_problem

from evaluator import kept_check, kept_outputs

SEED = 0x5EED


@pytest.fixture(autouse=True)
def _fresh_table(monkeypatch):
    """Each test's forwards alone are remembered (the table is the process's)."""
    monkeypatch.setattr(kept_outputs, "_RETURNED", {})


def _last_forward(model: nn.Module, draw, calls: int = 3):
    """`calls` forwards on fresh draws (each output remembered, none held here), then the fill of
    what is still alive and one more forward: the worker's outcome on it, and where it lay."""
    for i in range(calls):
        kept_outputs.note(model(*draw(i)))
    storages = kept_outputs.alive()
    for index, (storage, dtype) in enumerate(storages):
        kept_outputs._fill(storage, kept_outputs.fill_bytes(SEED, index, storage.nbytes(), dtype))
    out = model(*draw(calls))
    placed, tensors = kept_outputs._placed(list(out) if isinstance(out, tuple) else [out], storages)
    return kept_check.judge_placed(placed, tensors, SEED), placed


def _scores(i: int) -> tuple[torch.Tensor]:
    return (torch.randn(2, 3, 16, 16, generator=torch.Generator().manual_seed(i)),)


class _KeptCausalSoftmax(nn.Module):
    """Red team s69H's forward in PyTorch: the output kept on the module, zeroed once, and only
    the lower triangle stored again."""

    def __init__(self):
        super().__init__()
        self.kept = None

    def forward(self, scores):
        if self.kept is None:
            self.kept = torch.zeros_like(scores)
        n = scores.shape[-1]
        rows, cols = torch.tril_indices(n, n)
        masked = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
        self.kept[..., rows, cols] = torch.softmax(masked, -1)[..., rows, cols]
        return self.kept


class _ReusedBuffer(nn.Module):
    """One output buffer per shape, kept and written whole by every call (code written for CUDA
    graphs keeps such static buffers)."""

    def __init__(self):
        super().__init__()
        self.held = {}

    def forward(self, x):
        out = self.held.setdefault(tuple(x.shape), torch.empty_like(x))
        torch.softmax(x, -1, out=out)
        return out


class _RecurrentCell(nn.Module):
    """KernelBench level3's `return self.hidden`: the state handed back, read back next call."""

    def __init__(self, n: int = 16):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.w, self.u = torch.randn(n, n, generator=g) / 4, torch.randn(n, n, generator=g) / 4
        self.hidden = torch.zeros(6 * 16, n)

    def forward(self, x):
        self.hidden = torch.tanh(x.reshape(-1, x.shape[-1]) @ self.w + self.hidden @ self.u)
        return self.hidden


class _InPlaceRecurrentCell(nn.Module):
    """The state updated in place in the buffer it returns: every element read, then written."""

    def __init__(self):
        super().__init__()
        self.hidden = None

    def forward(self, x):
        if self.hidden is None:
            self.hidden = torch.zeros_like(x)
        return self.hidden.mul_(0.5).add_(torch.tanh(x))


def test_an_output_kept_across_calls_with_masked_zeros_written_once_is_refused():
    outcome, placed = _last_forward(_KeptCausalSoftmax(), _scores)
    assert placed, "the kept buffer is found among the filled storages"
    assert outcome is not None and outcome.status == "hack" and outcome.hacks == ["kept_output"]
    kept = outcome.details["kept_output"]
    assert kept["unchanged"] == 2 * 3 * (16 * 15 // 2) and kept["elements"] == 2 * 3 * 16 * 16
    assert "Write every element of the output in every call" in outcome.feedback


def test_a_reused_output_buffer_written_whole_every_call_is_not_refused():
    outcome, placed = _last_forward(_ReusedBuffer(), _scores)
    assert placed and outcome is None


def test_a_recurrent_cell_returning_its_state_and_reading_it_back_is_not_refused():
    outcome, _ = _last_forward(_RecurrentCell(), _scores)
    assert outcome is None


def test_state_updated_in_place_in_the_returned_buffer_is_not_refused():
    outcome, placed = _last_forward(_InPlaceRecurrentCell(), _scores)
    assert placed and outcome is None


def test_a_bool_output_matching_the_fill_by_chance_is_not_refused():
    """One byte per element: an honest write equals the fill once in 256; only past that chance
    by far is an output refused."""

    class Positive(nn.Module):
        def __init__(self):
            super().__init__()
            self.out = torch.empty(64, 64, dtype=torch.bool)

        def forward(self, x):
            return torch.gt(x, 0, out=self.out)

    outcome, placed = _last_forward(Positive(), lambda i: (torch.randn(64, 64),))
    assert placed and outcome is None


def test_a_view_of_a_kept_buffer_is_judged_at_its_place_in_it():
    """The output a slice of a larger kept buffer: the fill there, not at the storage's start."""

    class Tail(nn.Module):
        def __init__(self):
            super().__init__()
            self.buf = torch.zeros(8, 64)

        def forward(self, x):
            self.buf[4:, :32] = x  # the rest of the returned rows never written
            return self.buf[4:]

    outcome, placed = _last_forward(Tail(), lambda i: (torch.randn(4, 32),))
    assert placed[0]["byte_offset"] == 4 * 64 * 4
    assert outcome is not None and outcome.details["kept_output"]["unchanged"] == 4 * 32


def test_the_fill_is_the_seeds_alone_and_never_nan_or_infinite():
    a = kept_outputs.fill_bytes(SEED, 2, 1 << 16, torch.float32)
    assert torch.equal(a, kept_outputs.fill_bytes(SEED, 2, 1 << 16, torch.float32))
    assert not torch.equal(a, kept_outputs.fill_bytes(SEED + 1, 2, 1 << 16, torch.float32))
    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        assert torch.isfinite(kept_outputs.fill_bytes(SEED, 0, 1 << 16, dtype).view(dtype)).all()


def test_a_description_that_does_not_fit_its_tensor_is_not_judged():
    out = torch.zeros(4, 4)
    where = {"output": 0, "storage": 0, "nbytes": 16, "filled_as": "torch.float32", "dtype": "torch.float32",
             "byte_offset": 0, "shape": [4, 4], "stride": [4, 1]}
    assert kept_check.unchanged(where, out, SEED) is None  # 64 bytes of output in a 16-byte storage


def test_the_kept_buffer_is_refused_where_nothing_is_timed_too(evaluator):
    """Without timing the candidate child's last command is the check, after the trials (and
    the profile, where one is asked): red team s69H's file is refused there as in a timed run."""
    from pathlib import Path

    from common.messages import EvalSettings

    source = (Path(__file__).parent / "hacks" / "s69h_causal_softmax_kept_output_masked_zeros_written_once.py")
    verdict = evaluator.evaluate(fixture_problem("softmax/causal_softmax"), source.read_text(),
                                 EvalSettings(device="cpu", timeout_s=60, trials=2, timing=False))
    assert verdict.status == "hack" and verdict.hacks == ["kept_output"], verdict.feedback
    assert verdict.details["kept_output"]["unchanged"] > 0


def test_a_kept_buffer_is_not_forgotten_behind_many_live_outputs():
    """A module holding thousands of fresh outputs alive must not push its kept buffer out of
    the table the fill reads (it would go unfilled and unchecked)."""
    kept_outputs._RETURNED.clear()
    kept = torch.zeros(8)
    kept_outputs.note(kept)
    held = [torch.zeros(1) for _ in range(kept_outputs.MAX_TRACKED + 8)]
    for t in held:
        kept_outputs.note(t)
    assert any(s.data_ptr() == kept.untyped_storage().data_ptr() for s, _ in kept_outputs.alive())
    kept_outputs._RETURNED.clear()
