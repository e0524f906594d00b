"""The precision contract of float16/bfloat16 outputs (evaluator.compare.half_tolerance):
held to a small multiple of what PyTorch itself loses in the dtype."""
from __future__ import annotations

import pytest
import torch

from common.config.evaluator import CorrectnessConfig
from evaluator.compare import tolerance_for

CFG = CorrectnessConfig()


def tol(dtype, override=None):
    return tolerance_for(dtype, CFG, override)


def _drop_low_bits(x: torch.Tensor, bits: int) -> torch.Tensor:
    """A half tensor with the low `bits` of every mantissa zeroed (stored at lower precision)."""
    return (x.view(torch.int16) & -(1 << bits)).view(x.dtype)


@pytest.mark.parametrize("dtype,hole", [(torch.float16, 3), (torch.bfloat16, 2)])
def test_the_half_precision_contract_accepts_float32_accumulation_and_refuses_3_bit_truncation(dtype, hole):
    """A float16/bfloat16 output is held to a small multiple of what PyTorch itself loses
    computing it in that dtype (the reference child's float32 forward: compare.half_deviation).
    A kernel that accumulates in float32 in another order and rounds once is accepted; its
    result stored with the low mantissa bits dropped (3 of float16's, 2 of bfloat16's: ok
    under the dtype's plain tolerance, 1e-2 / 2e-2, ~30x one rounding) is not, and the verdict
    says which precision it missed; so is a half accumulator over a long reduction. Without a
    deviation (the float32 forward failed) the plain tolerance stands, and the contract never
    loosens it."""
    from common.config.evaluator import EvaluatorConfig
    from evaluator import compare as C
    from evaluator.feedback import mismatch_text
    from evaluator.judge import match

    cfg = EvaluatorConfig()
    g = torch.Generator().manual_seed(0)
    a = torch.randn(96, 2048, generator=g).to(dtype)
    b = (torch.randn(2048, 80, generator=g) * 2048 ** -0.5).to(dtype)
    strict = a @ b                                             # PyTorch in the half dtype
    deviation = C.half_deviation(strict, a.float() @ b.float())  # the reference child's numbers
    unit = C.rounding_unit(dtype)
    assert deviation is not None and 0.3 * unit < deviation[1] < 1.5 * unit
    split_k = sum(a[:, k:k + 512].float() @ b[k:k + 512].float() for k in range(0, 2048, 512)).to(dtype)
    assert match(split_k, strict, deviation, cfg, None) is None
    truncated = _drop_low_bits(split_k, hole)
    assert match(truncated, strict, None, cfg, None) is None   # the hole: within 1e-2 / 2e-2
    stats = match(truncated, strict, deviation, cfg, None)
    assert stats is not None and stats["norm_error"] > 2 * stats["precision_rtol"]
    assert f"{str(dtype)[6:]} precision" in mismatch_text("0", 0, stats)
    assert match(_drop_low_bits(split_k, 3), strict, deviation, cfg, None) is not None
    half_acc = torch.zeros(96, 80, dtype=dtype)
    for k in range(0, 2048, 32):                                # a half accumulator, 64 additions
        half_acc = (half_acc.float() + a[:, k:k + 32].float() @ b[k:k + 32].float()).to(dtype)
    assert match(half_acc, strict, deviation, cfg, None) is not None
    tol = C.tolerance_for(dtype, cfg.correctness, None)
    loose = C.half_tolerance(tol, dtype, [1.0, 0.5, 0.5])       # a reference that is mostly noise
    assert loose.norm_bound(1.0) == tol.norm_bound(1.0) and C.half_tolerance(tol, dtype, None) == tol
    assert C.half_tolerance(tol, torch.float32, deviation) == tol


def test_the_float32_forward_of_a_half_problem_upcasts_its_model_and_inputs_and_restores_them():
    """precision.deviations on a float16 output: the forward once more with the model's half
    parameters and the half inputs as float32 (their copies), the model's own tensors put
    back after, bit for bit; a float32 output of the same forward keeps its TF32 entry."""
    from evaluator.compare import half_deviation
    from evaluator.precision import deviations
    from evaluator.runner import CandidateError

    torch.manual_seed(0)
    model = torch.nn.Linear(256, 64).half()
    weight = model.weight
    x = torch.randn(32, 256).half()

    def forward(inputs):
        with torch.no_grad():
            y = model(*inputs)
        return [y, y.float().sum(dim=1)], []

    strict, _ = forward([x])
    found = deviations(forward, [x], strict, "cpu", model=model).whole
    assert model.weight is weight and model.weight.dtype == torch.float16 and x.dtype == torch.float16
    with torch.no_grad():
        wide = torch.nn.functional.linear(x.float(), weight.float(), model.bias.float())
    assert found[0] == pytest.approx(list(half_deviation(strict[0], wide)))
    assert found[1] is None                                      # float32: its TF32 entry (none, the matmul is half)
    assert deviations(forward, [x], strict, "cpu").whole == []         # no model given: nothing measured
    own_half = torch.randn(256, 8).half()

    def mixing(inputs):  # a forward that makes a half tensor of its own: in float32 it raises
        try:
            return [inputs[0] @ own_half], []
        except RuntimeError as exc:
            raise CandidateError("runtime_error", str(exc), "") from None

    assert deviations(mixing, [x], mixing([x])[0], "cpu", model=model).whole == []  # the plain tolerance stands

