"""What judging an output's small band as an output of its own would cost (session 70, s70C).

The open attack `docs/open_attacks/s69d_leaky_relu_*` computes leaky ReLU's negative half from
float16-rounded x: every float32 bound is relative to the whole output, so the part far below
its RMS is judged at the large part's scale. The fix idea judges the band |ref| < RMS / BAND as
its own output: atol from the band's RMS, norm and residual bounds relative to the band's norm,
each floored by WIDE_FLOOR (16) times the reference's own float32 rounding over the same band
(its float64 twin's answer, as `noise.wide_norms` measures it for the whole output). This script
runs a candidate's ModelNew in process under Triton's plain interpreter (not the evaluator's
GPU-order reductions), at the problem's CPU sizes, on the base and scaled trials, and prints per
output [elementwise, norm, residual] ratios of the band's error to those bounds (above 1: the
band rule would refuse it), the band's size, the error's and the floor's share of the band's norm.

    PYTHONPATH=$PWD python scripts/probe_small_band.py activation/elu base,scale:1e-3 FILE...
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys

os.environ.setdefault("TRITON_INTERPRET", "1")

import torch  # noqa: E402

from common.problemset import builtin_problem  # noqa: E402
from evaluator.compare import residual  # noqa: E402
from evaluator.input_transforms import transform_inputs  # noqa: E402
from evaluator.noise_floor import WIDE_FLOOR  # noqa: E402
from evaluator.precision import float64_inputs, float64_twin  # noqa: E402

BAND = 16.0  # the band: |ref| below the output's RMS over this
MIN_BAND = 16  # fewer elements than this: no band judged
ATOL, RTOL, NORM_RTOL, RESIDUAL_RTOL = 1e-4, 1e-4, 5e-3, 1.5e-4  # float32's defaults


def band_ratios(out: torch.Tensor, ref: torch.Tensor, wide: torch.Tensor) -> list | None:
    """[elementwise, norm, residual] ratios over the band's bounds, the band's size, the error's and
    the floor's share of its norm; None where the band is too small."""
    r, o, w = (t.double().reshape(-1) for t in (ref, out, wide))
    band = r.abs() < float(r.square().mean().sqrt()) / BAND
    if int(band.sum()) < MIN_BAND:
        return None
    r, o, w = r[band], o[band], w[band]
    err, own = o - r, r - w  # the candidate's error; the reference's own rounding
    size = float(r.norm())
    atol = max(ATOL * float(r.square().mean().sqrt()), WIDE_FLOOR * float(own.abs().max()))
    element = float((err.abs() / (atol + RTOL * r.abs())).max())
    own_norm, err_norm = float(own.norm()), float(err.norm())
    own_res = residual(own_norm**2, float(own @ r), size**2)
    err_res = residual(err_norm**2, float(err @ r), size**2)
    norm_bound = max(NORM_RTOL * size, WIDE_FLOOR * own_norm)
    res_bound = max(RESIDUAL_RTOL * size, WIDE_FLOOR * own_res)
    return [
        round(element, 2),
        round(err_norm / norm_bound, 2),
        round(err_res / res_bound, 2),
        int(band.sum()),
        float(f"{err_norm / size:.2e}"),
        float(f"{WIDE_FLOOR * own_norm / size:.2e}"),
    ]


def _module(path: str):
    spec = importlib.util.spec_from_file_location(
        "cand_" + re.sub(r"\W", "_", os.path.basename(path)), path
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _as_list(x) -> list:
    return [x] if isinstance(x, torch.Tensor) else list(x)


def probe(problem_name: str, path: str, transforms: list[str], seed: int) -> dict:
    """Per transform, per output: `band_ratios` of the candidate at `path` (its parameters loaded
    from the reference's where the names agree)."""
    problem = builtin_problem(problem_name)
    space: dict = {}
    exec(compile(problem.source, problem_name, "exec"), space)  # noqa: S102  (the trusted problem file)
    space.update(problem.sizes.get("cpu") or {})
    torch.manual_seed(1)
    ref_model = space["Model"](*space["get_init_inputs"]())
    torch.manual_seed(1)
    cand = _module(path).ModelNew(*space["get_init_inputs"]())
    if isinstance(cand, torch.nn.Module):
        cand.load_state_dict(ref_model.state_dict(), strict=False)
    found = {}
    for transform in transforms:
        torch.manual_seed(seed)
        inputs, _ = transform_inputs(space["get_inputs"](), transform, seed=seed)
        with torch.no_grad():
            refs = _as_list(ref_model(*inputs))
            wides = _as_list(float64_twin(ref_model)(*float64_inputs(inputs)))
            outs = _as_list(
                cand(*[t.clone() if isinstance(t, torch.Tensor) else t for t in inputs])
            )
        found[transform] = [
            band_ratios(o, r, w) if r.dtype == torch.float32 and r.numel() > 1 else None
            for o, r, w in zip(outs, refs, wides)
        ]
    return found


def main() -> None:
    problem_name, transforms = sys.argv[1], sys.argv[2].split(",")
    for path in sys.argv[3:]:
        try:
            found = probe(problem_name, path, transforms, int(os.environ.get("SEED", "5")))
        except Exception as e:  # noqa: BLE001  (a file the plain interpreter cannot run: said, next)
            found = {"failed": repr(e)[:200]}
        print(problem_name, os.path.basename(path), json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
