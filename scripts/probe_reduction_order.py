"""What a GPU answers, and what the CPU check's interpreter answers, for float reductions whose
result depends on the order and rounding of the combines (evaluator/interpreter_order.py,
interpreter_casts.float16_accumulated). Prints one JSON object.

    python scripts/probe_reduction_order.py > gpu.json                       # on the GPU
    TRITON_INTERPRET=1 PYTHONPATH=. python scripts/probe_reduction_order.py  # the CPU check's model

Cases: a 1 followed by N-1 values of half an ulp of 1 (fp16, bf16, fp32), summed and scanned in
the element dtype under 1, 4 and 8 warps; argmax(tie_break_left=False) of an all-zero tile; a
float16-accumulator tl.dot whose exact answer lies between per-step and once-at-the-end rounding;
and the error of 256 row sums of random normal rows, not upcast, against float64 (median and max
over the rows), which says whether the CPU's model is as lossy as the GPU."""

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


def launch(kernel, grid, *args, **kwargs):
    """kernel[grid](*args, **kwargs); interpreted, first through the GPU front end and lowering
    for sm_90 as the CPU check's launch hook does (`device_compile.check`), which records each
    reduction's and scan's compiled layout for the interpreter's order."""
    if INTERPRETED:
        from evaluator import device_compile

        device_compile.check(kernel, args, kwargs)
    kernel[grid](*args, **kwargs)


@triton.jit
def sums(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, tl.sum(x, 0).to(tl.float32))
    c = tl.cumsum(x, 0).to(tl.float32)
    tl.store(out_ptr + 1, tl.sum(tl.where(tl.arange(0, N) == N - 1, c, 0.0), 0))
    tl.store(out_ptr + 2, tl.argmax(x * 0, 0, tie_break_left=False).to(tl.float32))


@triton.jit
def row_sums(x_ptr, out_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(out_ptr + row, tl.sum(x, 0).to(tl.float32))


@triton.jit
def dot16(out_ptr, K: tl.constexpr):
    r = tl.arange(0, 16)
    k = tl.arange(0, K)
    a = (
        tl.where(k[None, :] == 0, 1.0, tl.where(k[None, :] % 16 == 1, 0.000732421875, 0.0))
        + r[:, None] * 0.0
    )
    b = tl.full((K, 16), 1.0, tl.float16)
    d = tl.dot(a.to(tl.float16), b, out_dtype=tl.float16)
    tl.store(out_ptr + r[:, None] * 16 + r[None, :], d)


def main() -> None:
    out: dict = {
        "device": torch.cuda.get_device_name() if not INTERPRETED else "cpu interpreter",
        "triton": triton.__version__,
        "torch": torch.__version__,
        "tiny": [],
        "rows": [],
    }
    for dtype, tiny in (
        (torch.float16, 2.0**-11),
        (torch.bfloat16, 2.0**-8),
        (torch.float32, 2.0**-24),
    ):
        for n in (64, 256, 1024):
            for warps in (1, 4, 8):
                x = torch.full((n,), tiny, dtype=dtype, device=DEV)
                x[0] = 1.0
                got = torch.zeros(3, device=DEV)
                launch(sums, (1,), x, got, N=n, num_warps=warps)
                out["tiny"].append(
                    {
                        "dtype": str(dtype),
                        "n": n,
                        "warps": warps,
                        "sum": got[0].item(),
                        "cumsum_last": got[1].item(),
                        "argmax_zeros": int(got[2].item()),
                    }
                )
    g = torch.Generator().manual_seed(0)
    for dtype in (torch.float16, torch.bfloat16):
        for n in (256, 1024, 4096):
            host = torch.randn(256, n, generator=g).to(dtype)
            exact = host.double().sum(1)
            got = torch.zeros(256, device=DEV)
            launch(row_sums, (256,), host.to(DEV), got, N=n, num_warps=4)
            err = (got.double().cpu() - exact).abs()
            out["rows"].append(
                {
                    "dtype": str(dtype),
                    "n": n,
                    "median_abs_err": err.median().item(),
                    "max_abs_err": err.max().item(),
                    "mean_abs_err": err.mean().item(),
                }
            )
    d = torch.zeros(16, 16, dtype=torch.float16, device=DEV)
    launch(dot16, (1,), d, K=256)
    out["f16_acc_dot"] = {"got": d[0, 0].item(), "per_k16_rne": 1.015625, "once": 1.01171875}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
