"""Every KernelBench level-1 and level-2 problem at its real sizes through the evaluator.

For each problem the benchmark writes one honest candidate that exercises the whole
pipeline: the problem's own Model (renamed, so the file is self-contained, as
KernelBench solutions are) computes the result and a Triton kernel copies every output
tensor, so the forward does library work plus Triton work, like a cuBLAS/cuDNN call
with a fused Triton epilogue. Under the default (paper) policy the right verdict is
`ok` with low coverage; anything else is the evaluator's failure on honest work:

  harness failure   the reference itself failed, the sandbox broke, a timeout or crash
  false rejection   any other status that is not ok (static checks, incorrect, ...)

The evaluations run through one in-process `evaluator.pipeline.Evaluator` (what a
`krl evaluator` worker runs) with `--concurrency` at once, so admission by device
memory and the reference cache work as in training. Recorded per evaluation: verdict,
wall time, the worker's phases, the sandbox's peak resident host memory (the worker's
watchdog), and the device's peak used memory during the evaluation (nvidia-smi sampled
every 250 ms: device-wide, so with concurrency it includes the others).

    python3 benchmarks/kernelbench.py --kernelbench /path/to/KernelBench        # GPU
    python3 benchmarks/kernelbench.py --kernelbench DIR --only level1/19_ReLU --device cpu

With `--solutions DIR` it evaluates solution files written by people instead: each file
names its problem near its top ("KernelBench level1/90_cumprod"), and every verdict that
is not ok is the evaluator's failure on that honest work unless the kernel itself is wrong
at these sizes (read the feedback). Target (issue 12): >= 95% ok; the reward of library +
Triton fusions below that of pure-Triton ones. Report: kernelbench_honest_<device>.md.

Results are appended to `--results` (JSON lines) as they come, and a run given the
same file skips what it already holds, so a run cut off by a time limit is continued
by running it again. `--gpus 0,1,...` splits the selection over one process per GPU
(`--shard i/n`, each appending to its own file beside --results), then merges their rows
into --results and writes one report. Writes benchmarks/reports/kernelbench_<device>.md and .json.
Targets (issue 12): every problem a verdict that is not a harness failure, p50 <= 10 s,
p95 <= 60 s per evaluation.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import re
import subprocess
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.evaluator_throughput import EXTRA_PATHS  # noqa: E402,F401,I001  (wheels in .whl/ first)

import yaml  # noqa: E402

from common.config import RunConfig, load  # noqa: E402
from common.messages import EvalSettings  # noqa: E402
from benchmarks.kernelbench_report import write_report  # noqa: E402
from common.problemset import Problem, load_problems  # noqa: E402

HARNESS = {"crashed", "timeout"}

_EPILOGUE = """

@triton.jit
def _kb_copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


def _kb_copy(t):
    t = t.contiguous()
    out = torch.empty_like(t)
    n = t.numel()
    if n > 0:
        _kb_copy_kernel[(triton.cdiv(n, 1024),)](t, out, n, BLOCK=1024)
    return out


class ModelNew(_KBReference):
    def forward(self, *args):
        out = super().forward(*args)
        if isinstance(out, (tuple, list)):
            return tuple(_kb_copy(o) for o in out)
        return _kb_copy(out)
"""


def make_candidate(source: str) -> str:
    """The problem's program with Model renamed `_KBReference`, its input functions left
    out, and a ModelNew that copies the reference's outputs through a Triton kernel."""
    tree = ast.parse(source)
    tree.body = [
        n
        for n in tree.body
        if not (isinstance(n, ast.FunctionDef) and n.name in ("get_inputs", "get_init_inputs"))
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Model":
            node.name = "_KBReference"
        elif isinstance(node, ast.Name) and node.id == "Model":
            node.id = "_KBReference"
    header = "import torch\nimport triton\nimport triton.language as tl\n"
    return header + ast.unparse(tree) + "\n" + _EPILOGUE


class DeviceMemory:
    """nvidia-smi's used memory of GPU 0, sampled every 250 ms in the background."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, int]] = []
        try:
            self.proc = subprocess.Popen(
                [
                    "nvidia-smi",
                    "--query-gpu=memory.used,memory.total",
                    "--format=csv,noheader,nounits",
                    "-lms",
                    "250",
                    "-i",
                    os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0],
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        except FileNotFoundError:
            self.proc = None
            return
        self.total_mib = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            used, _, total = line.partition(",")
            try:
                self.samples.append((time.monotonic(), int(used) << 20))
                self.total_mib = int(total)
            except ValueError:
                continue

    def peak(self, t0: float, t1: float) -> int | None:
        seen = [b for t, b in self.samples if t0 <= t <= t1]
        return max(seen) if seen else None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def _key(row: dict) -> str:
    """A results row's identity: its solution file's name, or its problem's."""
    return row.get("solution") or row["problem"]


def classify(status: str, error_source: str) -> str:
    if error_source in ("problem", "evaluator") or status in HARNESS:
        return "harness_failure"
    return "ok" if status == "ok" else "false_rejection"


_NAMES_PROBLEM = re.compile(r"KernelBench (level\d+/[\w.-]+)")


def load_solutions(directory: Path, problems: list[Problem]) -> list[tuple[str, Problem, str]]:
    """(solution name, its problem, its source) for each file in `directory` that names one
    of `problems` in its first lines; a file naming none of them is left out (with `--only`,
    most are)."""
    by_name = {p.name: p for p in problems}
    found = []
    for path in sorted(directory.glob("*.py")):
        text = path.read_text()
        m = _NAMES_PROBLEM.search("\n".join(text.splitlines()[:5]))
        if m and m.group(1).removesuffix(".py") in by_name:
            found.append((path.stem, by_name[m.group(1).removesuffix(".py")], text))
    return found


def evaluate_one(
    ev,
    problem: Problem,
    settings: EvalSettings,
    mem: DeviceMemory | None,
    source: str | None = None,
    solution: str | None = None,
) -> dict:
    t0 = time.monotonic()
    try:
        v = ev.evaluate(
            problem, make_candidate(problem.source) if source is None else source, settings
        )
        status, details, feedback, source = v.status, v.details, v.feedback, v.error_source
        speedup, coverage, phases, reward = v.speedup, v.coverage, v.phase_seconds, v.reward
    except Exception as exc:  # the evaluator itself raised: a harness failure
        status, details, source = "crashed", {}, "evaluator"
        # where the harness failed
        feedback = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-2000:]}"
        speedup = coverage = reward = None
        phases = {}
    t1 = time.monotonic()
    return {
        "problem": problem.name,
        "solution": solution,
        "status": status,
        "class": classify(status, source),
        "wall_s": round(t1 - t0, 3),
        "speedup": speedup,
        "coverage": coverage,
        "reward": reward,
        "phases": {k: round(x, 3) for k, x in (phases or {}).items()},
        "host_peak_rss_bytes": details.get("host_peak_rss_bytes"),
        "child_seconds": details.get("child_seconds"),
        # where the time went inside the children (their own clocks) and in the worker's comparisons
        "child_stages": details.get("child_stages"),
        "reference_stages": details.get("reference_stages"),
        "worker_seconds": details.get("worker_seconds"),
        # what the timed runs were held to: the profiled forwards' own and whole device time
        "timed_s": (details.get("timing") or {}).get("candidate", {}).get("median_s"),
        "profiled_device_s": (details.get("timing") or {}).get("profiled_device_s"),
        "device_peak_used_bytes": mem.peak(t0, t1) if mem else None,
        "precision": details.get("precision"),
        "reference_cached": details.get("reference_cached"),
        # a job that ran out of device memory under its share and ran again with the whole budget
        "device_retry": details.get("device_retry"),
        "overflow_trials": [
            t.get("inputs") for t in details.get("trials") or [] if t.get("overflow")
        ],
        "feedback": feedback[:3000] if status != "ok" else "",
    }


class StackSampler:
    """Where the worker's threads spend their time: every `interval_s` each thread's stack,
    cut to its innermost `depth` frames in this repository, is counted. A thread waiting on
    a child shows the command it waits for; one comparing shows the comparison."""

    def __init__(self, path: Path, interval_s: float = 0.01, depth: int = 6) -> None:
        self.path, self.interval_s, self.depth = path, interval_s, depth
        self.counts: dict[str, int] = {}
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stack-sampler", daemon=True)
        self._thread.start()

    def _signature(self, frame) -> str | None:
        ours, leaf = [], f"{Path(frame.f_code.co_filename).name}:{frame.f_code.co_name}"
        while frame is not None and len(ours) < self.depth:
            name = frame.f_code.co_filename
            if name.startswith(str(ROOT)) and "/benchmarks/" not in name:
                ours.append(
                    f"{Path(name).relative_to(ROOT)}:{frame.f_code.co_name}:{frame.f_lineno}"
                )
            frame = frame.f_back
        return " < ".join([leaf, *ours]) if ours else None

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval_s):
            self.samples += 1
            if self.samples % 1000 == 0:  # a run cut off by a time limit keeps what it saw
                self.write()
            for ident, frame in sys._current_frames().items():
                sig = self._signature(frame) if ident != me else None
                if sig:
                    self.counts[sig] = self.counts.get(sig, 0) + 1

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.write()

    def write(self) -> None:
        top = sorted(list(self.counts.items()), key=lambda kv: -kv[1])[:80]
        lines = [f"{n * self.interval_s:9.2f}s  {sig}" for sig, n in top]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(
            f"{self.samples} samples every {self.interval_s}s (thread-seconds)\n"
            + "\n".join(lines)
            + "\n"
        )


def evaluator_config(
    device: str, concurrency: int, overrides: list[str], timeout_s: float | None = None
):
    tree: dict = {
        "evaluator": {"device": device, "children": concurrency, "metrics": {"enabled": False}}
    }
    if timeout_s is not None:  # the worker's own limit caps a request's: --timeout-s sets both
        tree["evaluator"]["timeout_s"] = timeout_s
    for item in overrides:
        key, _, value = item.partition("=")
        *parents, leaf = key.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = yaml.safe_load(value)
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        yaml.safe_dump(tree, f)
    try:
        return load(Path(f.name), [], RunConfig).evaluator
    finally:
        os.unlink(f.name)


def _results_path(args: argparse.Namespace) -> Path:
    kind = "kernelbench_honest" if args.solutions else "kernelbench"
    return args.results or args.out / f"{kind}_{args.device}.jsonl"


def run_shards(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """--gpus: this selection split over one process per GPU (`--shard i/n`, each with its
    own results file beside --results, so none writes another's), run at once; then their
    rows are merged into --results and one run over the merged file (nothing left to do)
    writes the report, with the whole selection's wall time when every shard finished."""
    gpus = [g.strip() for g in args.gpus.split(",") if g.strip()]
    if not gpus or args.shard:
        ap.error("--gpus takes a comma-separated list of GPU indices and no --shard")
    results = _results_path(args)
    results.parent.mkdir(parents=True, exist_ok=True)
    argv, skip = [], False
    for a in sys.argv[1:]:  # this command line without --gpus and --results
        if skip:
            skip = False
        elif a in ("--gpus", "--results"):
            skip = True
        elif not a.startswith(("--gpus=", "--results=")):
            argv.append(a)
    parts = [results.with_name(f"{results.stem}.gpu{g}{results.suffix}") for g in gpus]
    resumed = any(p.exists() and p.read_text().strip() for p in [results, *parts])
    t0 = time.monotonic()
    procs = []
    for i, (gpu, part) in enumerate(zip(gpus, parts)):
        if results.exists() and not part.exists():  # rows already merged count as done there
            part.write_text(results.read_text())
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    *argv,
                    "--shard",
                    f"{i}/{len(gpus)}",
                    "--results",
                    str(part),
                ],
                env={**os.environ, "CUDA_VISIBLE_DEVICES": gpu},
            )
        )
    codes = [p.wait() for p in procs]
    wall = time.monotonic() - t0
    rows: dict[str, str] = {}
    for path in [results, *parts]:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    rows.setdefault(_key(json.loads(line)), line)
    results.write_text("".join(line + "\n" for line in rows.values()))
    print(
        f"{len(rows)} rows from {len(gpus)} shards (exit codes {codes}) in {wall:.0f} s", flush=True
    )
    final = subprocess.run(
        [sys.executable, __file__, *argv, "--results", str(results), "--budget-s", "0"],
        env={
            **os.environ,
            "CUDA_VISIBLE_DEVICES": gpus[0],
            "KB_GPU_SECONDS": "" if resumed else f"{wall * len(gpus):.3f}",
            "KB_GPUS": ",".join(gpus),
        },
    )
    return max([final.returncode, *codes])


def _evaluate(
    args: argparse.Namespace, cfg, settings: EvalSettings, todo: list, results: Path
) -> float:
    """Run `todo` through one Evaluator, appending each row to `results` as it comes; the
    wall time of the evaluations. With nothing to run (every row already in, or --budget-s 0,
    which submits nothing: a shard's split or a --gpus run's final report) no evaluator is
    started: its sandboxes and warm-up cost seconds of a process that evaluates nothing."""
    if not todo or (args.budget_s is not None and args.budget_s <= 0):
        results.touch()  # the report below reads it, as after a run that evaluated nothing
        return 0.0
    from evaluator.pipeline import Evaluator

    mem = DeviceMemory() if args.device == "cuda" else None
    t_start = time.monotonic()
    lock = threading.Lock()
    sampler = StackSampler(args.out / "kernelbench_profile.txt") if args.profile else None
    with Evaluator(cfg) as ev, open(results, "a") as sink:
        ev.warm_up()
        t0 = time.monotonic()

        def job(key: str, p: Problem, source: str | None) -> dict | None:
            if args.budget_s is not None and time.monotonic() - t_start > args.budget_s:
                return None
            return evaluate_one(ev, p, settings, mem, source, key if source is not None else None)

        with ThreadPoolExecutor(args.concurrency) as pool:
            for fut in as_completed([pool.submit(job, *j) for j in todo]):
                row = fut.result()
                if row is None:
                    continue
                with lock:
                    sink.write(json.dumps(row, default=str) + "\n")
                    sink.flush()
                print(f"{_key(row)}: {row['status']} {row['wall_s']:.1f}s", flush=True)
        wall = time.monotonic() - t0
    if sampler:
        sampler.close()
    if mem:
        mem.close()
    return wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--kernelbench", required=True, help="a KernelBench checkout (or its KernelBench/ folder)"
    )
    ap.add_argument("--levels", default="level1,level2")
    ap.add_argument(
        "--only", default="", help="comma-separated problem names (e.g. level1/19_ReLU)"
    )
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument(
        "--concurrency", type=int, default=4, help="evaluations at once (the worker's children)"
    )
    ap.add_argument("--timeout-s", type=float, default=120.0)
    ap.add_argument(
        "--results", type=Path, default=None, help="JSON lines, appended; default in --out"
    )
    ap.add_argument(
        "--shuffle",
        type=int,
        default=None,
        metavar="SEED",
        help="run the problems in a seeded random order (a run cut short samples every level)",
    )
    ap.add_argument(
        "--shard",
        default=None,
        metavar="K/N",
        help="run every Nth of the (shuffled) problems still to do, from the Kth: one "
        "process per GPU, each with CUDA_VISIBLE_DEVICES and its own --results",
    )
    ap.add_argument(
        "--gpus",
        default=None,
        metavar="LIST",
        help="comma-separated GPU indices: one shard process per GPU (its own "
        "CUDA_VISIBLE_DEVICES and results file), merged into --results and one report",
    )
    ap.add_argument(
        "--budget-s", type=float, default=None, help="submit nothing new after this many seconds"
    )
    ap.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="evaluator config override"
    )
    ap.add_argument(
        "--solutions",
        type=Path,
        default=None,
        help="a folder of solution files, each naming its KernelBench problem near its top",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "reports")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="sample the worker's thread stacks; writes <out>/kernelbench_profile.txt",
    )
    args = ap.parse_args()
    if args.gpus:
        return run_shards(ap, args)
    import torch

    if args.device == "cuda" and not torch.cuda.is_available():
        print("no CUDA device here; use --device cpu", file=sys.stderr)
        return 2
    problems = load_problems(f"{args.kernelbench}:{args.only or args.levels}")
    # (row key, problem, candidate source or None for the generated one)
    jobs = (
        [(name, p, src) for name, p, src in load_solutions(args.solutions, problems)]
        if args.solutions
        else [(p.name, p, None) for p in problems]
    )
    results = _results_path(args)
    results.parent.mkdir(parents=True, exist_ok=True)
    done = (
        {_key(json.loads(line)) for line in results.read_text().splitlines() if line.strip()}
        if results.exists()
        else set()
    )
    order = list(jobs)
    if args.shuffle is not None:
        import random

        random.Random(args.shuffle).shuffle(order)
    if args.shard:  # of the whole selection, so shards with their own results stay disjoint
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
            ap.error(f"--shard {args.shard!r}: K/N with 0 <= K < N")
        order = order[int(k) :: int(n)]
    todo = [j for j in order if j[0] not in done]
    cfg = evaluator_config(args.device, args.concurrency, args.set, args.timeout_s)
    settings = EvalSettings(device=args.device, timeout_s=args.timeout_s)
    print(
        f"{len(jobs)} evaluations, {len(done)} already in {results}, {len(todo)} to run"
        + (f" (shard {args.shard})" if args.shard else "")
        + "; "
        f"{args.concurrency} at once on {args.device}",
        flush=True,
    )
    wall = _evaluate(args, cfg, settings, todo, results)
    rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    wanted = {key for key, _, _ in jobs}
    rows = [r for r in rows if _key(r) in wanted]
    meta = {
        "device_name": torch.cuda.get_device_name(0)
        if args.device == "cuda"
        else platform.processor() or "cpu",
        "concurrency": args.concurrency,
        "policy": cfg.policy.name,
        "problems": len(jobs),
        "solutions": str(args.solutions) if args.solutions else None,
        "overrides": args.set,
        "host_cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "kernelbench": str(args.kernelbench),
    }
    # throughput only when this invocation ran the whole selection
    whole = len(todo) == len(jobs) and not args.shard
    if os.environ.get("KB_GPUS"):  # the report of a --gpus run: its rate is per GPU-second
        meta["gpus"] = os.environ["KB_GPUS"]
        seconds = os.environ.get("KB_GPU_SECONDS")  # none when this run resumed others' rows
        wall, whole = float(seconds or 0), bool(seconds) and len(rows) == len(jobs)
    print(write_report(args.out, args.device, meta, rows, wall if whole else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
