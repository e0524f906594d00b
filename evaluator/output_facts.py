"""What judging needs to know of a reference output besides its elements: its RMS (the atol
scale of scaled and spiked trials), its largest finite magnitude (the reach of a spike) and
whether every element is finite. The reference child measures them where it made the output
(on the device: `output_facts`, each trial's `facts`); the worker reads them there
(judge.ref_fact) and measures on the host only what the child did not say."""
from __future__ import annotations

import math

import torch

_CHUNK = 1 << 26  # elements per aminmax pass
_SLICE = 1 << 20  # elements per float64 pass of an RMS over infinities


def _extremes(t: torch.Tensor, stop_at_first: bool = False) -> tuple[float, bool]:
    """(largest finite magnitude, every element finite), one aminmax pass per chunk: the least
    and the largest are finite only if every element is (a NaN anywhere makes both NaN; an
    isfinite mask and its all() were 20x slower). `stop_at_first`: return at the first
    non-finite chunk (its peak then unknown)."""
    flat = t.reshape(-1)
    if t.is_complex():
        flat = torch.view_as_real(flat).reshape(-1)
    top, finite = 0.0, True
    for i in range(0, flat.numel(), _CHUNK):
        part = flat[i:i + _CHUNK]
        low, high = (float(x) for x in torch.aminmax(part))
        if not (math.isfinite(low) and math.isfinite(high)):
            finite = False
            if stop_at_first:
                return top, False
            low = high = float(torch.nan_to_num(part, nan=0.0, posinf=0.0, neginf=0.0).abs().max())
        top = max(top, abs(low), abs(high))
    return top, finite


def all_finite(t: torch.Tensor) -> bool:
    """Whether every element is finite (integer tensors always are)."""
    if not t.numel() or not (t.is_floating_point() or t.is_complex()):
        return True
    return _extremes(t, stop_at_first=True)[1]


def peak(t: torch.Tensor) -> float:
    """The largest finite magnitude (0 for none, or for an integer or complex tensor)."""
    if not t.numel() or not t.is_floating_point():
        return 0.0
    return _extremes(t)[0]


def rms(t: torch.Tensor) -> float:
    """Root mean square of the finite elements (0 for none)."""
    if not t.numel():
        return 0.0
    t = t if t.dtype in (torch.float32, torch.float64) else t.float()
    value = float(torch.linalg.vector_norm(t)) / t.numel() ** 0.5
    if math.isfinite(value):
        return value
    # a slice at a time, in float64, the finite elements only (a masked copy of a 4 GiB
    # output that overflowed on x1e3 inputs was 8 GiB and seconds, every evaluation)
    flat, total, count = t.reshape(-1), 0.0, 0
    for i in range(0, flat.numel(), _SLICE):
        part = flat[i:i + _SLICE].double()
        finite = torch.isfinite(part)
        count += int(finite.sum())
        total += float(torch.where(finite, part, 0.0).square().sum())
    return math.sqrt(total / count) if count else 0.0


def output_facts(t: torch.Tensor) -> dict:
    """The three facts of one output; peak and finiteness from the same pass."""
    if not t.numel() or not t.is_floating_point():
        return {"rms": rms(t), "peak": 0.0, "finite": all_finite(t)}
    top, finite = _extremes(t)
    return {"rms": rms(t), "peak": top, "finite": finite}
