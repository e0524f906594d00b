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
beyond both 64x moved and 4x wide in 400 draws (CPU)."""


def noise_pair(v: object) -> tuple[float, float] | None:
    """A reference child's noise for one output, in NOISE_FLOOR's units: [norm, residual] of
    the moved measurement, then optionally of the float64 one (noise.noise_norms), this one
    weighed by WIDE_FLOOR / NOISE_FLOOR and the larger of each part kept; or a bare norm (a
    reference cached before the residual was measured: no residual floor); None where not
    measured."""
    if isinstance(v, (list, tuple)) and len(v) in (2, 4):
        parts = list(v)
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


def floored(tol: Tolerance | None, noise: object) -> Tolerance | None:
    """`tol` with the norm and residual floors of the reference's noise (`NOISE_FLOOR` times
    `noise_pair`); as it was where there is no tolerance or no noise."""
    pair = noise_pair(noise)
    if tol is None or pair is None:
        return tol
    return replace(tol, noise=NOISE_FLOOR * pair[0], noise_residual=NOISE_FLOOR * pair[1])
