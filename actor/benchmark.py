"""`krl benchmark`: a model on a problem set, no learning.

    krl benchmark --model DIR --problems SET [--turns T] [--samples N]
                  [--scaling-turns K --window W] [--out DIR] [--config RUN.yaml] [key=value ...]

Every problem gets N episodes of T turns, exactly as the actor plays them in
training (same prompts, feedback, token budget; actor/episode.py), judged by the
evaluator service. With --scaling-turns K it also runs sequential test-time
scaling: episodes of K turns whose context keeps only the best turn so far plus the
most recent ones (W turns in all). The metrics (correctness and Fast@p per turn and
best over turns) are defined in actor/bench_report.py and the README.

The evaluator: `--broker ENDPOINT` uses a running `krl broker`; otherwise this
command starts its own broker and `--workers` workers (subprocesses, stopped at the
end) on `evaluator.device`. Writes report.json, report.md and fast_by_turn.png
(Fast@p by turn; skipped with a note if matplotlib is missing) into --out. On a
machine without a GPU, timings (and so Fast@p for p > 0) are CPU-interpreter timings.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common.ports import free_port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="Hugging Face model directory")
    parser.add_argument(
        "--problems",
        required=True,
        help="problem set: builtin, builtin:<family>, a KernelBench dir/file, .jsonl/.parquet",
    )
    parser.add_argument("--turns", type=int, default=3, help="turns per episode (default 3)")
    parser.add_argument("--samples", type=int, default=1, help="episodes per problem (default 1)")
    parser.add_argument(
        "--scaling-turns",
        type=int,
        default=0,
        help="also run sequential test-time scaling for this many turns (0: off)",
    )
    parser.add_argument(
        "--window",
        type=int,
        default=4,
        help="turns kept in context during scaling: the best one plus the latest (default 4)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N problems")
    parser.add_argument(
        "--out", default="runs/benchmark", help="report directory (default runs/benchmark)"
    )
    parser.add_argument(
        "--config", help="run config YAML (actor.engine/sampling/prompts/eval, evaluator, broker)"
    )
    parser.add_argument(
        "--broker", help="use this running broker (tcp://host:port) instead of starting one"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="evaluator workers to start (default 1)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=64, help="episodes in flight (default 64)"
    )
    parser.add_argument(
        "--no-plot",
        action="store_true",
        help="skip the PNG plot (skipped anyway, with a note, without matplotlib)",
    )
    parser.add_argument(
        "overrides", nargs="*", help="dotted config overrides, e.g. temperature=0.6"
    )


def _usage_error(message: str) -> int:
    print(f"krl benchmark: {message}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    from actor.bench_report import INSTALL_HINT
    from common.config import ConfigError, RunConfig, load
    from common.problemset import ProblemError, load_problems

    if min(args.turns, args.samples, args.window, args.workers, args.concurrency) < 1:
        return _usage_error(
            "--turns, --samples, --window, --workers and --concurrency must be >= 1"
        )
    if args.scaling_turns and args.scaling_turns <= args.turns:
        return _usage_error("--scaling-turns must exceed --turns (it refines past them)")
    if not args.no_plot and importlib.util.find_spec("matplotlib") is None:
        print(
            f"krl benchmark: matplotlib is missing, so the plot will be skipped: {INSTALL_HINT}",
            file=sys.stderr,
        )  # said now, not only after a long run
    try:
        cfg = load(args.config, args.overrides, RunConfig)
        problems = load_problems(args.problems)[: args.limit]
    except (ConfigError, ProblemError) as exc:
        return _usage_error(str(exc))
    except OSError as exc:
        return _usage_error(f"cannot read {exc.filename}: {exc.strerror}")
    if not Path(args.model).is_dir():
        return _usage_error(f"--model {args.model}: not a directory")
    from common.log import setup

    setup("benchmark", 0, cfg.log)
    with EvaluatorService(cfg, args.broker, args.workers) as frontend:
        cfg.broker.frontend = frontend
        rep = asyncio.run(_run(cfg, args, problems))
    from actor.bench_report import write

    paths = write(rep, Path(args.out), with_plot=not args.no_plot)
    print(paths[1].read_text())
    print("wrote " + ", ".join(str(p) for p in paths))
    if "skipped" in rep.get("plot", {}):
        print(f"krl benchmark: plot skipped: {rep['plot']['skipped']}", file=sys.stderr)
    return 0


async def _run(cfg: Any, args: argparse.Namespace, problems: list) -> dict:
    from actor.bench_report import report
    from actor.engine import Engine
    from actor.main import build_runner
    from common.metrics import Metrics
    from common.problemset import to_payload

    engine = Engine(cfg.actor.engine, args.model)
    await engine.start(0)
    runner = build_runner(cfg, engine, Metrics("benchmark"), "benchmark")
    payloads = [to_payload(p) for p in problems]
    try:
        t0 = time.monotonic()
        base = await run_episodes(
            runner, payloads, args.samples, args.turns, None, args.concurrency, "multi-turn"
        )
        scaling = None
        if args.scaling_turns:
            scaling = await run_episodes(
                runner,
                payloads,
                args.samples,
                args.scaling_turns,
                args.window,
                args.concurrency,
                "scaling",
            )
        elapsed = time.monotonic() - t0
    finally:
        runner.judge.client.close()
        engine.shutdown()
    device = cfg.evaluator.device if args.broker is None else "as served by " + args.broker
    meta = {
        "model": args.model,
        "problems": args.problems,
        "num_problems": len(problems),
        "samples": args.samples,
        "turns": args.turns,
        "scaling_turns": args.scaling_turns,
        "window": args.window,
        "device": device,
        "seconds": round(elapsed, 1),
        "sampling": cfg.actor.sampling.model_dump(),
        "note": "On CPU, speedups are Triton-interpreter timings, not GPU speedups."
        if device == "cpu"
        else "",
    }
    return report(meta, base, args.turns, scaling, args.scaling_turns)


async def run_episodes(
    runner: Any,
    problems: list,
    samples: int,
    turns: int,
    window: int | None,
    concurrency: int,
    label: str,
) -> list:
    """Every (problem, sample) episode, at most `concurrency` at once, with a progress bar."""
    from tqdm import tqdm

    from actor.bench_report import EpisodeResult, TurnResult

    gate = asyncio.Semaphore(concurrency)
    bar = tqdm(total=len(problems) * samples, desc=label, unit="episode", file=sys.stderr)

    async def one(i: int, sample: int) -> EpisodeResult:
        async with gate:
            ep = await runner.run(problems[i], sample, turns, f"{label}-{i}-s{sample}", window)
        bar.update(1)
        return EpisodeResult(
            problems[i].name,
            sample,
            ep.end,
            [
                TurnResult(
                    t.verdict.label,
                    t.verdict.correct,
                    t.verdict.speedup,
                    t.verdict.reward,
                    t.verdict.judged,
                    t.text,
                )
                for t in ep.turns
            ],
        )

    try:
        return list(
            await asyncio.gather(*(one(i, s) for i in range(len(problems)) for s in range(samples)))
        )
    finally:
        bar.close()


class EvaluatorService:
    """A broker plus workers as subprocesses (or a given broker); yields its frontend."""

    def __init__(self, cfg: Any, broker: str | None, workers: int):
        self.cfg, self.broker, self.workers = cfg, broker, workers
        self.procs: list[subprocess.Popen] = []
        self._tmp: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> str:
        if self.broker:
            return self.broker
        from common.config import dump

        self._tmp = tempfile.TemporaryDirectory(prefix="krl-bench-")
        cfg = self.cfg.model_copy(deep=True)
        cfg.broker.frontend = f"tcp://127.0.0.1:{free_port()}"
        cfg.broker.backend = f"tcp://127.0.0.1:{free_port()}"
        cfg.broker.metrics.enabled = False
        cfg.evaluator.metrics.enabled = False
        path = Path(self._tmp.name) / "evaluator.yaml"
        path.write_text(dump(cfg))
        cmd = [sys.executable, "-m", "launcher.cli"]
        with open(Path(self._tmp.name) / "service.log", "ab") as log:  # the children keep it open
            self.procs.append(subprocess.Popen([*cmd, "broker", str(path)], stdout=log, stderr=log))
            for i in range(self.workers):
                self.procs.append(
                    subprocess.Popen(
                        [*cmd, "evaluator", str(path), f"evaluator.worker.worker_id=bench{i}"],
                        stdout=log,
                        stderr=log,
                    )
                )
        return cfg.broker.frontend

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self._tmp is not None:
            self._tmp.cleanup()
