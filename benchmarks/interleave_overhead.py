"""Overhead of interleaved launches (evaluator.interpreter_schedule) against one program at a time.

The CPU evaluator runs a launch's programs interleaved, a turn before every global access,
with happens-before bookkeeping (evaluator.interpreter_races). The baseline is the same guard
with the schedule off (programs one after another, as Triton's interpreter runs them). Four
launches, each timed both ways (alternating which goes first, median of --rounds):
  relu_wide     one ReLU over 256K floats in 256 programs of 1024 lanes
  relu_many     the same in 2048 programs of 128 lanes (the per-program cost)
  matmul        a tl.dot matmul, 256x256x256 in 32x32x32 tiles (64 programs, 16 loads each)
  ticket_lock   a sum into one float under a ticket lock, 256 programs (spins and waits)
Ratio = interleaved / one at a time; 1.0 is free. Target: at most 1.25 for the launches whose
programs do not wait for each other. The ticket lock has no target: one at a time every program
finds its turn at once, interleaved its waiters poll after each hand-off (a program whose poll
repeats goes after every one that does not; session 33 measured 9.2x before that rule, ~1.0x after).

    .venv/bin/python benchmarks/interleave_overhead.py [--rounds 5]

Writes benchmarks/reports/interleave_overhead.md and .json. Numbers are CPU numbers.
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

from evaluator import interpreter_guard, interpreter_schedule

TARGET = 1.25


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
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def ticket_lock_kernel(x_ptr, acc_ptr, next_ptr, serving_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    part = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0)
    ticket = tl.atomic_add(next_ptr, 1)
    while tl.atomic_add(serving_ptr, 0) != ticket:
        pass
    tl.store(acc_ptr, tl.load(acc_ptr) + part)
    tl.atomic_add(serving_ptr, 1)


def _cases() -> dict:
    x = torch.randn(1 << 18)
    y = torch.empty_like(x)
    a, b, c = torch.randn(256, 256), torch.randn(256, 256), torch.empty(256, 256)
    s = torch.randn(256 * 64)

    def ticket():
        words = torch.zeros(2, dtype=torch.int32)
        ticket_lock_kernel[(256,)](s, torch.zeros(1), words, words[1:], BLOCK=64)

    return {
        "relu_wide": lambda: relu_kernel[(256,)](x, y, x.numel(), BLOCK=1024),
        "relu_many": lambda: relu_kernel[(2048,)](x, y, x.numel(), BLOCK=128),
        "matmul": lambda: matmul_kernel[(8, 8)](a, b, c, 256, 256, 256, BM=32, BN=32, BK=32),
        "ticket_lock": ticket,
    }


def _timed(fn, interleaved: bool) -> float:
    begin = interpreter_schedule.begin
    if not interleaved:
        interpreter_schedule.begin = lambda *args, **kwargs: (
            None
        )  # the grid loop runs them in order
    try:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    finally:
        interpreter_schedule.begin = begin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    assert interpreter_guard.install()
    rows = []
    for name, fn in _cases().items():
        fn()  # warm: the interpreter's first launch of a kernel builds its scope
        on, off = [], []
        for r in range(args.rounds):
            order = (True, False) if r % 2 == 0 else (False, True)
            for interleaved in order:
                (on if interleaved else off).append(_timed(fn, interleaved))
        on_s, off_s = statistics.median(on), statistics.median(off)
        rows.append(
            {"case": name, "interleaved_s": on_s, "one_at_a_time_s": off_s, "ratio": on_s / off_s}
        )
        print(
            f"{name:12s} interleaved {on_s * 1e3:8.1f} ms  one at a time {off_s * 1e3:8.1f} ms  "
            f"ratio {on_s / off_s:.2f}",
            flush=True,
        )
    met = all(r["ratio"] <= TARGET for r in rows if r["case"] != "ticket_lock")
    out = ROOT / "benchmarks" / "reports"
    out.mkdir(parents=True, exist_ok=True)
    facts = {
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "rounds": args.rounds,
        "target": TARGET,
        "met": met,
        "rows": rows,
    }
    (out / "interleave_overhead.json").write_text(json.dumps(facts, indent=2) + "\n")
    lines = [
        "# Interleaved launches: overhead against one program at a time (CPU interpreter)",
        "",
        f"`benchmarks/interleave_overhead.py --rounds {args.rounds}`, {facts['cpus']} CPUs; "
        f"median wall time per launch. Target: ratio <= {TARGET} where no program waits for "
        "another (not the ticket lock, whose waiters poll after every hand-off): "
        f"{'met' if met else 'NOT met'}.",
        "",
        "| case | interleaved | one at a time | ratio |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['case']} | {r['interleaved_s'] * 1e3:.1f} ms | {r['one_at_a_time_s'] * 1e3:.1f} ms "
        f"| {r['ratio']:.2f} |"
        for r in rows
    ]
    (out / "interleave_overhead.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
