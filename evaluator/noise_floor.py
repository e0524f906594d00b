"""The worker's side of the reference's noise floor (evaluator.noise measures it in the
reference child): the norm and residual bounds of compare.Tolerance never ask for less than a
multiple of the reference's own noise on the trial being judged."""
from __future__ import annotations

import math
from dataclasses import replace

from evaluator.compare import Tolerance

NOISE_FLOOR = 64.0
"""The norm and residual bounds never ask for less than this many times the reference's own
noise: how far its output moves when its float inputs move by a few units in the last place
(the trusted reference child measures it per trial, `noise.noise_norms`; WIDE_FLOOR for its
float64 measurement). For an output that is mathematically zero (a mean of a group norm's output, KernelBench level2/23 and 41),
the reference is rounding noise, an exact answer was 3.4x its norm away from it, and every
honest kernel failed; for a well-conditioned output the floor is ~1e-5 of its norm, far
under the bounds, so the near-zero-output defence (an all-zero answer to a tiny output) holds."""


WIDE_FLOOR = 16.0
"""The norm and residual bounds never ask for less than this many times the reference's own
rounding error measured in float64 (noise.wide_norms): that measurement is the error itself,
not a proxy for it, so it takes a smaller multiple than NOISE_FLOOR's moved inputs (an output
the reference computes 10 bits short, (x + 1000) - 1000 on x ~ 1e-3, would take a bfloat16
kernel, 31x its error, under 64x). Level2/23's honest kernel, two outputs per trial: never
beyond both 64x moved and 4x wide in 400 draws (CPU). Where the output has few correct digits
the measurement is the RMS of five draws of that rounding (noise.redraws), not one: one draw
could be a tenth of its size and 16x it under an honest kernel's rounding (session 58)."""


def noise_pair(v: object) -> tuple[float, float] | None:
    """A reference child's noise for one output, in NOISE_FLOOR's units: [norm, residual] of
    the moved measurement, then optionally of the float64 one (noise.noise_norms), this one
    weighed by WIDE_FLOOR / NOISE_FLOOR and the larger of each part kept; or a bare norm (a
    reference cached before the residual was measured: no residual floor); None where not
    measured."""
    if isinstance(v, (list, tuple)) and len(v) in (2, 4, 5):
        parts = list(v[:4])
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        parts = [v, 0.0]
    else:
        return None
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
               for x in parts):
        return None
    norm, res = float(parts[0]), float(parts[1])
    if len(parts) == 4:
        norm = max(norm, WIDE_FLOOR / NOISE_FLOOR * float(parts[2]))
        res = max(res, WIDE_FLOOR / NOISE_FLOOR * float(parts[3]))
    return (norm, res) if norm > 0 else None


def element_floor(v: object) -> float:
    """The least elementwise bound (compare.Tolerance.atol_floor) a reference child's noise
    for one output asks for: WIDE_FLOOR times the largest difference of the float32
    reference from its float64 twin's answer (noise.wide_norms), 0.0 where not measured (a
    reference cached before session 54, a float64 forward that failed or was too large).

    The elementwise atol is a fixed share of the output's scale, but an element's honest
    rounding follows the terms that made it: a float32 sum over 2048 terms of ~1e3 that
    cancels to ~470 carries ~0.2 of order-dependent rounding (any summation order but the
    reference's), past atol + rtol * |ref| ~ 0.15 on two elements in 16384, and tritonbench's
    honest sum kernel was incorrect on the H200 (session 54; its norm error 8e-7 of a 5e-3
    bound). PyTorch's own float32 answer is ~0.03 from the float64 one there: an element may be
    WIDE_FLOOR times the reference's worst rounding away, as the norm bound may. Low precision
    is not inside it (a float16 accumulation's error is ~2**13 times float32's)."""
    if not (isinstance(v, (list, tuple)) and len(v) == 5 and noise_pair(v) is not None):
        return 0.0
    m = v[4]
    ok = isinstance(m, (int, float)) and not isinstance(m, bool) and math.isfinite(m) and m >= 0
    return WIDE_FLOOR * float(m) if ok else 0.0


def floored(tol: Tolerance | None, noise: object) -> Tolerance | None:
    """`tol` with the norm and residual floors of the reference's noise (`NOISE_FLOOR` times
    `noise_pair`) and its elementwise floor (`element_floor`); as it was where there is no
    tolerance or no noise."""
    pair = noise_pair(noise)
    if tol is None or pair is None:
        return tol
    return replace(tol, noise=NOISE_FLOOR * pair[0], noise_residual=NOISE_FLOOR * pair[1],
                   atol_floor=element_floor(noise))
