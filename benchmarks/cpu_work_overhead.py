"""Overhead of evaluator.cpu_work: a forward's wall time with the work counter against without.

Three CPU forwards under the Triton interpreter, each timed plain and inside
`cpu_work.measure` (alternating which goes first, median of --rounds):
  elementwise  one Triton ReLU launch over 1M floats (1024 programs of 1024 lanes)
  matmul       a Triton tl.dot matmul, 256x256x256 in 32x32x32 tiles (64 programs)
  aten         a torch-only MLP block on 64x256 (linear, layer_norm, gelu, softmax, ...),
               dozens of aten ops and no launch: the cost of the dispatch mode
Ratio = counted / plain; 1.0 is free.

    .venv/bin/python benchmarks/cpu_work_overhead.py [--rounds 7]

Writes benchmarks/reports/cpu_work_overhead.md and .json. Numbers are CPU numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"  # before triton is first imported
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch
import triton
import triton.language as tl

from evaluator import cpu_work


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        rk = k + tl.arange(0, BK)
        acc += tl.dot(
            tl.load(a_ptr + rm[:, None] * K + rk[None, :]),
            tl.load(b_ptr + rk[:, None] * N + rn[None, :]),
        )
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def elementwise(inputs: list) -> torch.Tensor:
    x = inputs[0]
    y = torch.empty_like(x)
    relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y


def matmul(inputs: list) -> torch.Tensor:
    a, b = inputs
    c = torch.empty(a.shape[0], b.shape[1])
    matmul_kernel[(a.shape[0] // 32, b.shape[1] // 32)](
        a, b, c, a.shape[0], b.shape[1], a.shape[1], BM=32, BN=32, BK=32
    )
    return c


def aten(inputs: list) -> torch.Tensor:
    x, w1, w2 = inputs
    for _ in range(4):
        h = torch.nn.functional.gelu(torch.nn.functional.linear(x, w1))
        h = torch.nn.functional.layer_norm(h, h.shape[-1:])
        x = x + torch.softmax(torch.nn.functional.linear(h, w2), dim=-1) * 0.5
    return x


WORKLOADS = {
    "elementwise": (elementwise, lambda: [torch.randn(1 << 20)], {"relu_kernel"}),
    "matmul": (matmul, lambda: [torch.randn(256, 256), torch.randn(256, 256)], {"matmul_kernel"}),
    "aten": (
        aten,
        lambda: [torch.randn(64, 256), torch.randn(512, 256), torch.randn(256, 512)],
        set(),
    ),
}


def bench(name: str, rounds: int) -> dict:
    forward, make_inputs, kernels = WORKLOADS[name]
    inputs = make_inputs()
    forward(inputs)  # warm-up: the interpreter rewrites each kernel once
    plain, counted, result = [], [], {}
    for i in range(rounds):
        for counting in (False, True) if i % 2 else (True, False):  # who goes first alternates
            t0 = time.perf_counter()
            if counting:
                result = cpu_work.measure(forward, inputs, kernels)
            else:
                forward(inputs)
            (counted if counting else plain).append(time.perf_counter() - t0)
    p, c = statistics.median(plain), statistics.median(counted)
    return {
        "workload": name,
        "plain_s": p,
        "counted_s": c,
        "ratio": c / p,
        "coverage": result["coverage"],
        "estimated_time_s": result["estimated_time_s"],
        "error": result["error"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "reports")
    args = p.parse_args()
    torch.set_num_threads(1)  # steadier medians on a shared machine
    rows = [bench(name, args.rounds) for name in WORKLOADS]
    for row in rows:
        print(json.dumps(row), flush=True)
    data = {
        "rounds": args.rounds,
        "machine": platform.processor() or platform.machine(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "rows": rows,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cpu_work_overhead.json").write_text(json.dumps(data, indent=2) + "\n")
    table = "\n".join(
        f"| {r['workload']} | {r['plain_s'] * 1e3:.1f} | {r['counted_s'] * 1e3:.1f} "
        f"| {r['ratio']:.2f} | {r['coverage']:.3f} |"
        for r in rows
    )
    (args.out / "cpu_work_overhead.md").write_text(f"""# cpu_work overhead (Triton interpreter, CPU)

Wall time of one forward, plain and inside `cpu_work.measure`, median of {args.rounds}
alternating rounds, one torch thread; torch {torch.__version__}, triton {triton.__version__}.
Ratio = counted / plain (1.0 is free). Coverage is the counter's estimate for that forward.

| workload | plain ms | counted ms | ratio | coverage |
|---|---|---|---|---|
{table}
""")


if __name__ == "__main__":
    main()
