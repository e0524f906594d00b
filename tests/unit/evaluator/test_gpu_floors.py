"""The GPU's coverage bound prices PyTorch's ops by what they computed, as the CPU's does
(profiled_coverage._gpu_bound): the aten meter of the GPU's profiled runs (aten_only, no value
read) reports the floors' fields, which timed_steps copies beside `aten_unfused_s`. Driven here
on meta tensors at the activation problems' GPU sizes (no device needed)."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from evaluator import cpu_work
from evaluator.profiled_coverage import profiled_coverage

SHAPE = (4096, 8192)  # activation/elu, activation/relu (batch_size, dim)


def _runs(forward, share: float) -> list[dict]:
    """Profiled runs as timed_steps reports them on the GPU: the kernels' time, and the aten
    meter's price of PyTorch's ops with the floors' fields."""
    meter = cpu_work.WorkCounter((), aten_only=True)
    with meter:
        forward()
    work = meter.result()
    assert work["error"] is None, work
    gpu = 1e-3
    run = {"coverage": share, "gpu_time_s": gpu, "candidate_time_s": share * gpu,
           "aten_unfused_s": work["unfused_time_s"], **{k: work[k] for k in cpu_work.FLOOR_FIELDS}}
    return [dict(run) for _ in range(3)]


def _route_share(candidate: list[dict], reference: list[dict]) -> float:
    """The GPU's bound before session 64: PyTorch's ops at their route's price alone."""
    return 1.0 - candidate[0]["aten_unfused_s"] / reference[0]["aten_unfused_s"]


def _x(dtype=torch.float32) -> torch.Tensor:
    return torch.randn(SHAPE, dtype=dtype, device="meta")


def test_a_torch_route_to_elu_beside_triton_copies_is_left_none_on_the_gpu():
    """s62d's ELU as where(y > 0, y, alpha * expm1(y)) in PyTorch (its Triton copies are timed,
    not metered): priced by its route the GPU left it a third of the reference's torch._decomp
    chain; its expm1 and multiply made the numbers, charged their share of the reference's."""
    x, alpha = _x(), 0.8
    reference = _runs(lambda: F.elu(x, alpha=alpha), 1.0)
    route = _runs(lambda: torch.where(x > 0, x, alpha * torch.expm1(x)), 0.6)
    assert _route_share(route, reference) > 0.2
    shown = profiled_coverage(route, reference)
    assert shown["reference_share"] == 0.0 and shown["coverage"] == 0.0, shown


def test_a_sign_by_a_float8_conversion_is_pytorchs_work_on_the_gpu():
    """s62d's relu: a Triton kernel's float16 x * 2**40 saturated to its sign by one float8
    conversion; priced as a copy of its reads it was most of relu's work left to the kernels."""
    x = _x()
    reference = _runs(lambda: torch.relu(x), 1.0)
    route = _runs(lambda: _x(torch.float16).to(torch.float8_e4m3fn), 0.8)
    assert _route_share(route, reference) > 0.5
    shown = profiled_coverage(route, reference)
    assert shown["reference_share"] == 0.0 and shown["coverage"] == 0.0, shown


@pytest.mark.parametrize("selection", [
    lambda x, branch: torch.where(x > 0, x, branch),
    lambda x, branch: torch.maximum(x, branch)])
def test_a_selection_over_a_triton_kernels_numbers_keeps_its_price_on_the_gpu(selection):
    """The honest s23b's shape: a Triton kernel makes the expm1 branch, torch.where picks it or
    x; judged by name on the GPU (no value read), the selection is still no numbers made."""
    x, branch = _x(), _x()
    reference = _runs(lambda: F.elu(x, alpha=0.8), 1.0)
    hybrid = _runs(lambda: selection(x, branch), 0.6)
    shown = profiled_coverage(hybrid, reference)
    assert shown["reference_share"] == pytest.approx(_route_share(hybrid, reference)), shown
    assert shown["reference_share"] > 0.2, shown


def test_runs_without_the_floor_fields_are_priced_as_before():
    """A reference or candidate run recorded before the fields existed: its route's price."""
    x = _x()
    reference = [{k: v for k, v in r.items() if k not in cpu_work.FLOOR_FIELDS}
                 for r in _runs(lambda: F.elu(x, alpha=0.8), 1.0)]
    route = _runs(lambda: torch.where(x > 0, x, 0.8 * torch.expm1(x)), 0.6)
    assert profiled_coverage(route, reference)["reference_share"] == pytest.approx(_route_share(route, reference))
