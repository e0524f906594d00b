"""What moving and judging one big output costs, each way against the old one, in one run.

A level-1 KernelBench output is ~6 GiB. Per trial it crosses from the child's device to
the worker (`protocol.Arena`) and is judged there (`compare.fast_match`):

  arena     a device tensor into a child's reply arena: staged (64 MiB pinned buffer, the
            CPU copying each slice on, one thread as in a child) against page-locked (the
            child's arena mapping registered with the driver once, one DMA per reply); the
            first reply faults the arena's pages in (and registers them), the second reuses
            them. Then the worker's `copy_out`.
  judge     `fast_match` of a close float32 pair on the host's CPU (the worker's threads)
            against the same on the device (`compare.on_device`, slices uploaded from the
            host copies), for the same answer.

    python3 benchmarks/judge_transfer.py --gib 6        # the GPU machine
Writes benchmarks/reports/judge_transfer.md and .json (or --out DIR).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from evaluator import compare as C  # noqa: E402
from evaluator import protocol  # noqa: E402


def _put(child_side: protocol.Arena, t: torch.Tensor, locked: bool) -> float:
    if not locked:
        protocol._page_lock = lambda _t: False
    t0 = time.perf_counter()
    child_side.put([t.view(torch.uint8).reshape(-1)])
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gib", type=float, default=6.0)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "reports")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("needs a CUDA GPU")
    n = int(args.gib * (1 << 30)) // 4
    rows: dict[str, float] = {}
    dev = torch.randn(n, device="cuda")
    lock = protocol._page_lock
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as in a child
    for kind, locked in (("staged", False), ("page_locked", True)):
        arena = protocol.Arena.create()
        child_side = protocol.Arena(os.dup(arena.fd))  # a child keeps its arena for its life
        try:
            rows[f"arena_{kind}_first_s"] = _put(child_side, dev, locked)
            rows[f"arena_{kind}_again_s"] = _put(child_side, dev, locked)
            protocol._page_lock = lock
            torch.set_num_threads(threads)
            t0 = time.perf_counter()
            host = torch.frombuffer(arena.copy_out(0, n * 4), dtype=torch.float32)
            rows[f"copy_out_{kind}_s"] = time.perf_counter() - t0
            torch.set_num_threads(1)
            assert torch.equal(host[:1 << 20], dev[:1 << 20].cpu()), "arena bytes differ"
        finally:
            child_side.close()
            arena.close()
    torch.set_num_threads(threads)
    ref = host
    out = (dev + 1e-7 * torch.randn_like(dev)).cpu()
    del dev
    tol = C.Tolerance(atol=1e-5, rtol=1e-5, norm_rtol=1e-3, residual_rtol=1.5e-4)
    t0 = time.perf_counter()
    on_host = C.fast_match(out, ref, tol)
    rows["judge_host_s"] = time.perf_counter() - t0
    with C.on_device("cuda"):
        C.fast_match(out[:1 << 20], ref[:1 << 20], tol)  # the context and buffers: once per worker
        t0 = time.perf_counter()
        on_device = C.fast_match(out, ref, tol)
        rows["judge_device_s"] = time.perf_counter() - t0
    assert on_host and on_device, (on_host, on_device)
    report = {"gib": args.gib, "device": torch.cuda.get_device_name(), "worker_threads": threads,
              "seconds": {k: round(v, 3) for k, v in rows.items()},
              "arena_speedup_again": round(rows["arena_staged_again_s"] / rows["arena_page_locked_again_s"], 2),
              "judge_speedup": round(rows["judge_host_s"] / rows["judge_device_s"], 2)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "judge_transfer.json").write_text(json.dumps(report, indent=1) + "\n")
    lines = [f"# One {args.gib:g} GiB float32 output: moved to the worker and judged", "",
             f"{report['device']}; worker threads {threads}; a child's copy runs on 1 thread.", "",
             "| step | seconds |", "|---|---:|"] + [f"| {k} | {v:.3f} |" for k, v in report["seconds"].items()] + [
             "", f"Arena write, pages reused: page-locked is {report['arena_speedup_again']}x the staged path.",
             f"fast_match: the device is {report['judge_speedup']}x the host's CPU (same answer)."]
    (args.out / "judge_transfer.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
