"""Bit-exact answers of order-dependent float reductions and scans over 2D tiles, and of float8
tl.dot accumulation, on a GPU or under the CPU check's interpreter. Prints one JSON object.

    python scripts/probe_reduction_layouts.py > gpu.json                        # on the GPU
    TRITON_INTERPRET=1 PYTHONPATH=. python scripts/probe_reduction_layouts.py   # the CPU's model

`tiles`: random normal tiles (seeded on the host, the same on both machines) of several shapes,
summed and scanned along each axis in the element dtype under 1, 4 and 8 warps; the answers
are the exact values, so two machines agree only where their combine order and rounding do.
`fp8_dot`: rows [1, s, s, ...] times columns [1, s, s, ...] of float8 (e4m3) values, M x M tiles
with K = 32..256 (mma for 16 rows, wgmma from 64), s = 2^-j: the exact answer is 1 + (K-1) s^2;
the answer says how many bits the accumulator keeps."""

import json
import os
import sys

import torch
import triton
import triton.language as tl

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
if INTERPRETED:
    from evaluator import interpreter_guard

    assert interpreter_guard.install()
DEV = "cpu" if INTERPRETED else "cuda"
# QUICK=1: a subset (every dtype, axis and op on three shapes; warps 1, 4, 8 on one), for a unit
# test
QUICK = os.environ.get("QUICK") == "1"


def launch(kernel, grid, *args, **kwargs):
    """kernel[grid](*args, **kwargs); interpreted, first through the GPU front end and lowering
    for sm_90 as the CPU check's launch hook does (`device_compile.check`), which records each
    reduction's and scan's compiled layout for the interpreter's order."""
    if INTERPRETED:
        from evaluator import device_compile

        device_compile.check(kernel, args, kwargs)
    kernel[grid](*args, **kwargs)


@triton.jit
def tile_ops(
    x_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr, SCAN: tl.constexpr
):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    if SCAN:
        tl.store(out_ptr + r * C + c, tl.cumsum(x, AXIS).to(tl.float32))
    else:
        s = tl.sum(x, AXIS).to(tl.float32)
        if AXIS == 0:
            tl.store(out_ptr + tl.arange(0, C), s)
        else:
            tl.store(out_ptr + tl.arange(0, R), s)


@triton.jit
def fp8_dot(a_ptr, b_ptr, out_ptr, M: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * M + m[None, :])
    d = tl.dot(a, b)
    tl.store(out_ptr + m[:, None] * M + m[None, :], d)


def main() -> None:
    out: dict = {
        "device": torch.cuda.get_device_name() if not INTERPRETED else "cpu interpreter",
        "triton": triton.__version__,
        "torch": torch.__version__,
        "tiles": [],
        "fp8_dot": [],
    }
    g = torch.Generator().manual_seed(1)
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        for shape in ((64, 16), (16, 64), (32, 128), (128, 32), (8, 256)):
            host = torch.randn(*shape, generator=g).to(dtype)
            for axis in (0, 1):
                for scan in (False, True):
                    for warps in (1, 4, 8):
                        if QUICK and (
                            shape not in ((64, 16), (16, 64), (8, 256))
                            or warps != 4
                            and shape != (16, 64)
                        ):
                            continue
                        n = shape[0] * shape[1] if scan else shape[1 - axis]
                        got = torch.zeros(n, device=DEV)
                        launch(
                            tile_ops,
                            (1,),
                            host.to(DEV),
                            got,
                            R=shape[0],
                            C=shape[1],
                            AXIS=axis,
                            SCAN=scan,
                            num_warps=warps,
                        )
                        out["tiles"].append(
                            {
                                "dtype": str(dtype),
                                "shape": list(shape),
                                "axis": axis,
                                "scan": scan,
                                "warps": warps,
                                "values": got.cpu().tolist(),
                            }
                        )
    f8 = getattr(torch, "float8_e4m3fn", None)
    if f8 is not None and not QUICK:
        for m, k in ((16, 32), (64, 32), (64, 128), (128, 256)):  # mma for 16 rows, wgmma from 64
            for j in range(0, 10):
                s = 2.0**-j
                a = torch.full((m, k), s)
                a[:, 0] = 1.0
                b = torch.full((k, m), s)
                b[0, :] = 1.0
                got = torch.zeros(m, m, device=DEV)
                row = {"m": m, "k": k, "j": j, "exact": 1 + (k - 1) * s * s}
                try:
                    launch(
                        fp8_dot,
                        (1,),
                        a.to(f8).to(DEV),
                        b.to(f8).to(DEV),
                        got,
                        M=m,
                        K=k,
                        num_warps=4,
                    )
                    row["got"] = got[0, 0].item()
                except Exception as exc:  # an interpreter or a GPU without fp8 dots
                    row["error"] = f"{type(exc).__name__}: {exc}"[:200]
                out["fp8_dot"].append(row)
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
