"""The trusted reference child's own noise on an input set: how far each output moves when its
float inputs move by a few units in the last place. The worker's norm and residual bounds never
ask for less than compare.NOISE_FLOOR times it: where the true output is zero (a mean of a group
norm's output), the float32 reference is rounding noise and no relative bound can be met."""
from __future__ import annotations

import math
from collections.abc import Callable

import torch

from evaluator.compare import residual
from evaluator.runner import leaves, looks_like_labels

NOISE_ULPS = 4  # how far `noise_norms` moves each float input, in units in the last place
_NOISE_SLICE = 1 << 24


def diff_norms(a: torch.Tensor, b: torch.Tensor) -> list[float] | None:
    """[||a - b||, its part that is not a common factor of b (compare.residual)] in float64, a
    slice at a time (no whole-size temporary); None unless both are float tensors of one
    shape, or where the numbers are not finite. A normalised output's noise is mostly one
    common factor (its norm's rounding), which must not loosen the residual bound (a bfloat16
    answer to x / ||x|| once passed it: red team D, session 16)."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape \
            or not a.is_floating_point() or not b.is_floating_point():
        return None
    fa, fb, d_sq, d_r, r_sq = a.reshape(-1), b.reshape(-1), 0.0, 0.0, 0.0
    for i in range(0, fa.numel(), _NOISE_SLICE):
        r = fb[i:i + _NOISE_SLICE].double()
        d = fa[i:i + _NOISE_SLICE].double() - r
        d_sq += float(d.square().sum())
        d_r += float(torch.dot(d, r))
        r_sq += float(r.square().sum())
    if not all(math.isfinite(x) for x in (d_sq, d_r, r_sq)):
        return None
    return [math.sqrt(d_sq), residual(d_sq, d_r, r_sq)]


def noise_norms(forward: Callable[[list], tuple], inputs: list, outs: list[torch.Tensor]) -> list | None:
    """Per output, [||moved - out||, its residual] (`diff_norms`) after a second forward on the
    set's float inputs moved toward zero by up to NOISE_ULPS units in the last place (in place:
    the set is released after), label-like tensors left alone. None per output that is not
    float or changes shape; None in all where an input cannot be moved in place or the
    problem refuses the moved inputs."""
    sample = torch.Generator().manual_seed(0x0153)
    moving = [x for x in leaves(inputs) if x.is_floating_point() and not looks_like_labels(x, sample)]
    if not moving or any(not x.is_contiguous() or x._base is not None for x in moving):
        return None
    gen = torch.Generator(device=moving[0].device).manual_seed(0x0153)
    with torch.no_grad():
        for x in moving:  # toward zero only: probabilities stay in [0, 1], signs and zeros kept
            flat = x.view(-1)
            step = NOISE_ULPS * torch.finfo(x.dtype).eps
            for i in range(0, flat.numel(), _NOISE_SLICE):
                part = flat[i:i + _NOISE_SLICE]
                u = torch.rand(part.shape, generator=gen, device=part.device, dtype=part.dtype)
                part.mul_(u.mul_(-step).add_(1.0))
    try:
        moved, _ = forward(inputs)
    except Exception:  # noqa: BLE001  (the problem refuses the moved inputs: no floor, no verdict)
        return None
    return [diff_norms(a, b) for a, b in zip(moved, outs)] if len(moved) == len(outs) else None
