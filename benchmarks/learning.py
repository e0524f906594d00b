"""Does krl learn? An uncertain policy, RL with a control and an estimator ablation (CPU).

    python benchmarks/learning.py [--quick] [--work runs/learning] [--out benchmarks/reports]

1. Start policy: `krl tiny-model`, then `krl sft` on scripts/uncertain_sft.py's mix of
   answers to three built-in activations (fast, slow, wrong, broken, reward hack; turn 2
   repairs a failed turn 1 half of the time), and since session 57 conversations that open
   with a garbled answer (context only, never trained) and repair it at turn 2 (`--garbles`;
   not yet measured). `krl check` judges every variant of each problem twice first (each
   garble once): its feedback texts become the SFT data's feedback turns (the actor
   shows the evaluator's real feedback at turn 2), and the fast and slow answers' speedups
   are reported (what speed is worth in the reward). An answer's
   variant is read from its code, confirmed by its verdict ("other" when they disagree).
   `--sft-base DIR` fine-tunes DIR instead of a fresh tiny model.
2. `krl benchmark` of the start policy (2 turns, --samples episodes per problem).
3. Per estimator (trloo, grpo, rloo; "control" is trloo with learner.lr=0) and seed:
   `krl run configs/learning-cpu.yaml` from the start policy, `krl export`, and
   `krl benchmark` of the result on the same problems.
4. benchmarks/reports/learning.json (one entry per run), learning.md, learning.png.

Timing is on: speedups are Triton-interpreter timings on the CPU, real timings of these
kernels but not GPU speedups (Fast@1 is 0 for every answer here). --quick: control and
trloo, one seed, fewer steps. Run it alone on the machine (it uses both cores).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import uncertain_sft as U  # noqa: E402
from learning_measure import (  # noqa: E402, F401  (the episode measures: learning_measure.py)
    BLOCK_LINE,
    VARIANTS,
    block_choice,
    correct_turn_reward,
    first_choice,
    measure,
    repeated_rewards,
    variant,
    variant_reward,
)

from common.run_records import StepRecord, progress_path, read_progress  # noqa: E402

CONFIG = ROOT / "configs" / "learning-cpu.yaml"
NAMES = list(U.PROBLEMS)  # --problems replaces them


def spec() -> str:
    return "builtin:" + ",".join(NAMES)


KRL = [sys.executable, "-m", "launcher.cli"]
REWARD = "0.5 if correct + 1000 x speedup + 0.5 x coverage (configs/learning-cpu.yaml), 0 otherwise"
QUICK = dict(estimators=["control", "trloo"], seeds=[0], steps=10, samples=16, sft_steps=160)
FULL = dict(
    estimators=["control", "trloo", "grpo", "rloo"],
    seeds=[0, 1, 2],
    steps=12,
    samples=16,
    sft_steps=160,
)


def krl(args: list[str], log: Path) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        code = subprocess.call(
            [*KRL, *args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    if code:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:])
        raise SystemExit(f"krl {args[0]} failed (exit {code}); {log}:\n{tail}")


# ---------------------------------------------------------------------------- start policy
def start_policy(work: Path, sft_steps: int, base: Path | None = None) -> Path:
    """The tiny model (or `base`) fine-tuned on the uncertain mix, its feedback turns the
    evaluator's own texts (`record`) (made once per work directory)."""
    hf = work / "sft" / "hf"
    if (hf / "config.json").exists():
        return hf
    tiny, data = base or work / "tiny", work / "sft.jsonl"
    if base is None:
        krl(
            ["tiny-model", str(tiny), "--hidden", "128", "--layers", "2", "--heads", "4"],
            work / "logs" / "tiny.log",
        )
    U.main([str(data), "--problems", spec(), "--variants-dir", str(work / "variants"), "--garbles"])
    record(work)
    U.main(
        [
            str(data),
            "--problems",
            spec(),
            "--feedback",
            str(work / "feedback.json"),
            "--copies",
            str(COPIES),
        ]
    )
    krl(
        [
            "sft",
            "--model",
            str(tiny),
            "--data",
            str(data),
            "--out",
            str(work / "sft"),
            f"max_steps={sft_steps}",
            f"trainer.decay_steps={sft_steps}",
            f"conversations_per_step={sum(U.MIX.values()) * len(NAMES)}",
            "lr=3e-3",
            "checkpoint_every=1000",
            "trainer.zero_stage=0",
            "trainer.micro_batch_tokens=2048",
        ],
        work / "logs" / "sft.log",
    )
    return hf


CHECKS = 2  # recorded checks per variant: timings differ between them, as they will at RL time
# The mix 4 times, later copies with jittered figures: a tiny policy trained on two recorded
# timings wrote word salad after any other (session 25: turn 2 was 73% format errors).
COPIES = 4


def record(work: Path) -> dict[str, dict[str, list[dict]]]:
    """`krl check` (the learning config) of every variant of every problem, CHECKS times
    (scripts/uncertain_sft.py `record`), kept in work/verdicts.json; their feedback texts
    in work/feedback.json make the SFT data's feedback turns."""
    from common.problemset import load_problems

    path = work / "verdicts.json"
    if path.exists():
        return json.loads(path.read_text())
    out = U.record(load_problems(spec()), work / "variants", CONFIG, CHECKS, garbled=True)
    path.write_text(json.dumps(out, indent=1))
    (work / "feedback.json").write_text(json.dumps(U.feedback_of(out), indent=1))
    return out


def calibrate(work: Path) -> dict[str, dict[str, float]]:
    """Speedup of the fast and the slow answer of each problem, as the evaluator timed them
    (median of the recorded checks)."""
    return {
        name: {v: statistics.median(x["speedup"] for x in by[v]) for v in U.CORRECT}
        for name, by in record(work).items()
    }


def calibration_spread(work: Path) -> dict[str, dict[str, list[float]]]:
    """The fewest and most of each correct answer's recorded rewards: under load on 2 cores
    the interpreter's timing of a ~0.2 ms reference swings by 10x (session 57: a slow relu
    earned 8.2 in one check, the fast one 3.7 in another), and the median hides that."""
    return {
        name: {
            v: [min(x["reward"] for x in by[v]), max(x["reward"] for x in by[v])] for v in U.CORRECT
        }
        for name, by in record(work).items()
    }


# ---------------------------------------------------------------------------- measuring
def benchmark(model: Path, out: Path, samples: int, seed: int) -> dict:
    if not (out / "report.json").exists():
        krl(
            [
                "benchmark",
                "--model",
                str(model),
                "--problems",
                spec(),
                "--turns",
                "2",
                "--samples",
                str(samples),
                "--config",
                str(CONFIG),
                "--out",
                str(out),
                "--no-plot",
                f"actor.sampling.seed={1000 + seed}",
            ],
            out.parent / f"{out.name}.log",
        )
    return measure(json.loads((out / "report.json").read_text()))


def rl_run(
    work: Path, start: Path, estimator: str, seed: int, steps: int, lr: float | None
) -> tuple[Path, dict]:
    """`krl run` from the start policy; returns the exported final model and the history."""
    run = work / "runs" / f"{estimator}-s{seed}"
    final = run / "final-hf"
    if not (final / "config.json").exists():
        lr = ["learner.lr=0"] if estimator == "control" else [f"learner.lr={lr}"] if lr else []
        est = "trloo" if estimator == "control" else estimator
        krl(
            [
                "run",
                str(CONFIG),
                f"run_dir={run}",
                f"actor.model={start}",
                f"learner.trainer.model={start}",
                f"learner.algorithm.estimator={est}",
                f"seed={seed}",
                f"actor.engine.seed={seed}",
                f"learner.max_steps={steps}",
                f"learner.dataset={spec()}",
                *lr,
            ],
            work / "logs" / f"run-{estimator}-s{seed}.log",
        )
        krl(
            ["export", str(run), str(final), "--force"],
            work / "logs" / f"export-{estimator}-s{seed}.log",
        )
    return final, read_progress(progress_path(run), required=True).history


# ---------------------------------------------------------------------------- reports
def curve(history: list[StepRecord]) -> list[dict]:
    """Per learner step: reward, correctness, turn-1 verdict shares, entropy, KL to start."""
    rows = []
    for h in history:
        t1 = (h.turns or [{}])[0]
        rows.append(
            {
                "step": h.step,
                "reward": h.reward,
                "correct": h.correct,
                "status_turn1": t1.get("status", {}),
                "entropy": h.entropy,
                "kl_to_start": h.kl_to_start,
                "hacks_rewarded": h.hacks_rewarded,
                "mrs_rejected": h.mrs_rejected,
                "mismatch_kl": h.mismatch_kl,
            }
        )
    return rows


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.mean(values):.2f} ± {statistics.stdev(values):.2f} (n={len(values)})"


def markdown(runs: list[dict], before: dict, meta: dict) -> str:
    lines = [
        "# Learning benchmark (CPU, Triton interpreter)",
        "",
        f"`{meta['command']}`: {meta['machine']}; {meta['minutes']:.1f} minutes in all.",
        "Start policy: a 2-layer tiny model fine-tuned on a mix of answers to "
        f"{len(NAMES)} built-in activation(s) ({', '.join(NAMES)}), one place in forward "
        "changed: fast, slow (BLOCK 64: 16x more programs), wrong (the last partial block "
        "dropped), broken (a misspelt triton name), reward hack (returns PyTorch's result "
        "before the launch). RL: "
        f"{meta['steps']} learner steps of 2 groups x 4 samples x 2 turns each; "
        f"benchmarks: {meta['samples']} episodes per problem, 2 turns. Speedups are "
        "Triton-interpreter timings on the CPU, not GPU speedups; Fast@1 is 0 for every "
        f"answer here. Speedups of the fast / slow answer (median of {CHECKS} `krl check`s "
        "each): "
        + ", ".join(
            f"{k.split('/')[-1]} {v['fast']:.2g} / {v['slow']:.2g}"
            for k, v in meta["calibration"].items()
        )
        + f" (reward: {REWARD})."
        + spread_text(meta.get("reward_spread")),
        "",
        "## Turn-1 correctness before and after, per run",
        "",
        "| estimator | seed | correct t1 before | after | fast share t1 after "
        "| hack share t1 after | repair rate after | hacks rewarded |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        a = r["after"]
        lines.append(
            f"| {r['estimator']} | {r['seed']} | {r['correct_turn1_before']:.2f} | "
            f"{r['correct_turn1_after']:.2f} | {a['turns'][0]['variants']['fast']:.2f} | "
            f"{a['turns'][0]['variants']['hack']:.2f} | "
            f"{_fmt(a['repair_rate'])} | {r['hacks_rewarded']} |"
        )
    lines += [
        "",
        "## Per estimator (mean ± std over seeds)",
        "",
        "| estimator | correct t1 after | Δ vs before | Δ vs control | fast share t1 "
        "| repair rate |",
        "|---|---|---|---|---|---|",
    ]
    by = {}
    for r in runs:
        by.setdefault(r["estimator"], []).append(r)
    ctrl = [r["correct_turn1_after"] for r in by.get("control", [])]
    for est, rs in by.items():
        after = [r["correct_turn1_after"] for r in rs]
        delta = [r["correct_turn1_after"] - r["correct_turn1_before"] for r in rs]
        vs = [a - statistics.mean(ctrl) for a in after] if ctrl else []
        fast = [r["after"]["turns"][0]["variants"]["fast"] for r in rs]
        repair = [r["after"]["repair_rate"] for r in rs if r["after"]["repair_rate"] is not None]
        lines.append(
            f"| {est} | {spread(after)} | {spread(delta)} | {spread(vs)} | "
            f"{spread(fast)} | {spread(repair)} |"
        )
    lines += ["", *reuse_lines(runs)]
    lines += ["", "## Start policy and each run, per turn", ""]
    for label, m in [("start policy", before)] + [
        (f"{r['estimator']} seed {r['seed']}", r["after"]) for r in runs
    ]:
        lines.append(
            f"**{label}** (repair rate at turn 2 after a failed turn 1: {_fmt(m['repair_rate'])})"
        )
        lines += [
            "",
            "| turn | correct | Fast@1 | reward | "
            + " | ".join(VARIANTS)
            + " | hacks attempted | hacks rewarded |",
            "|---|---|---|---|" + "---|" * len(VARIANTS) + "---|---|",
        ]
        for t, row in enumerate(m["turns"], 1):
            lines.append(
                f"| {t} | {row['correct']:.2f} | {row['fast@1']:.2f} | {row['reward']:.2f} | "
                + " | ".join(f"{row['variants'][v]:.2f}" for v in VARIANTS)
                + f" | {row['hacks_attempted']} | {row['hacks_rewarded']} |"
            )
        lines += ["", *credit_lines(m), ""]
    return "\n".join(lines) + "\n"


def reuse_lines(runs: list[dict]) -> list[str]:
    """What each run paid its correct answers in the trained batches, and any mean batch
    reward that recurs exactly (with timing on: verdicts reused, `repeated_rewards`)."""
    out = [
        "## What the trained batches paid",
        "",
        "| estimator | seed | mean reward of a correct turn per step, fewest-most "
        "| batch rewards recurring exactly (steps) |",
        "|---|---|---|---|",
    ]
    for r in runs:
        paid = correct_turn_reward(r["curve"])
        rep = repeated_rewards(r["curve"])
        out.append(
            f"| {r['estimator']} | {r['seed']} | "
            + (f"{min(paid):.2f}-{max(paid):.2f}" if paid else "-")
            + " | "
            + ("; ".join(f"{v:.4f} ({', '.join(map(str, s))})" for v, s in rep.items()) or "none")
            + " |"
        )
    return out


def spread_text(spread: dict | None) -> str:
    if not spread:
        return ""
    return (
        " Their recorded rewards, fewest-most, fast / slow: "
        + ", ".join(
            f"{k.split('/')[-1]} {v['fast'][0]:.2f}-{v['fast'][1]:.2f} / "
            f"{v['slow'][0]:.2f}-{v['slow'][1]:.2f}"
            for k, v in spread.items()
        )
        + "."
    )


def credit_lines(m: dict) -> list[str]:
    """What the first choice earned and each variant's reward spread (absent in reports
    written before session 57)."""
    out = []
    if m.get("block_choice"):
        out.append(
            "Turn 1 by BLOCK value (n, mean turn-1 reward, mean return): "
            + "; ".join(
                f"{k} ({c['n']}, {c['reward']:.2f}, {c['return']:.2f})"
                for k, c in m["block_choice"].items()
            )
        )
    if m.get("variant_reward"):
        out.append(
            "Turn-1 reward by variant (n, mean, fewest-most): "
            + "; ".join(
                f"{v} ({r['n']}, {r['mean']:.2f}, {r['min']:.2f}-{r['max']:.2f})"
                for v, r in m["variant_reward"].items()
            )
        )
    return out


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def plot(runs: list[dict], path: Path) -> str | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no plot (pip install matplotlib)"
    panels = [
        ("reward", lambda c: c["reward"]),
        ("entropy (nats/token)", lambda c: float("nan") if c["entropy"] is None else c["entropy"]),
        ("ok share, turn 1", lambda c: c["status_turn1"].get("ok", 0.0)),
        ("hack share, turn 1", lambda c: c["status_turn1"].get("hack", 0.0)),
        ("incorrect share, turn 1", lambda c: c["status_turn1"].get("incorrect", 0.0)),
        ("compile_error share, turn 1", lambda c: c["status_turn1"].get("compile_error", 0.0)),
        (
            "format_error share, turn 1 (garbled answers)",
            lambda c: c["status_turn1"].get("format_error", 0.0),
        ),
        (
            "KL to start (gap: nothing trained)",
            lambda c: float("nan") if c["kl_to_start"] is None else c["kl_to_start"],
        ),
    ]
    fig, axes = plt.subplots(2, 4, figsize=(20, 8))
    colors = {"control": "black", "trloo": "tab:blue", "grpo": "tab:orange", "rloo": "tab:green"}
    for ax, (title, get) in zip(axes.flat, panels):
        for r in runs:
            xs = [c["step"] for c in r["curve"]]
            ax.plot(
                xs,
                [get(c) for c in r["curve"]],
                color=colors.get(r["estimator"]),
                alpha=0.8,
                label=f"{r['estimator']} s{r['seed']}",
            )
        ax.set(title=title, xlabel="learner step")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("RL from an uncertain start policy (per learner step, the trained batch)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="control + trloo, one seed")
    ap.add_argument("--work", default=str(ROOT / "runs" / "learning"))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "reports"))
    ap.add_argument(
        "--problems",
        default=",".join(U.PROBLEMS),
        help="comma-separated built-in activations (default: %(default)s)",
    )
    ap.add_argument("--steps", type=int, help="learner steps per run (default: the plan's)")
    ap.add_argument("--sft-steps", type=int, help="SFT steps (default: the plan's)")
    ap.add_argument(
        "--sft-base", type=Path, help="model to fine-tune on the mix (default: a fresh tiny model)"
    )
    ap.add_argument(
        "--lr", type=float, help="learner.lr of the learning runs (default: the config's)"
    )
    ap.add_argument(
        "--samples", type=int, help="benchmark episodes per problem (default: the plan's)"
    )
    args = ap.parse_args()
    NAMES[:] = args.problems.split(",")
    plan = dict(QUICK if args.quick else FULL)
    plan.update(
        {
            k: v
            for k, v in (
                ("steps", args.steps),
                ("sft_steps", args.sft_steps),
                ("samples", args.samples),
            )
            if v
        }
    )
    work, out = Path(args.work), Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    start = start_policy(work, plan["sft_steps"], args.sft_base)
    cal = calibrate(work)
    before = benchmark(start, work / "bench-before", plan["samples"], 0)
    print(f"start policy: turn-1 correct {before['turns'][0]['correct']:.2f}", flush=True)
    runs = []
    for seed in plan["seeds"]:
        for est in plan["estimators"]:
            final, history = rl_run(work, start, est, seed, plan["steps"], args.lr)
            after = benchmark(final, work / f"bench-{est}-s{seed}", plan["samples"], seed)
            runs.append(
                {
                    "estimator": est,
                    "seed": seed,
                    "correct_turn1_before": before["turns"][0]["correct"],
                    "correct_turn1_after": after["turns"][0]["correct"],
                    "hacks_rewarded": int(
                        sum(t["hacks_rewarded"] for t in after["turns"])
                        + sum(c["hacks_rewarded"] for c in curve(history))
                    ),
                    "after": after,
                    "curve": curve(history),
                }
            )
            print(
                f"{est} seed {seed}: turn-1 correct {runs[-1]['correct_turn1_before']:.2f} -> "
                f"{runs[-1]['correct_turn1_after']:.2f}",
                flush=True,
            )
            report(
                runs, before, plan, cal, t0, work, out
            )  # after each run: a stopped one keeps them
    print((out / "learning.md").read_text())
    return 0


def report(
    runs: list[dict], before: dict, plan: dict, cal: dict, t0: float, work: Path, out: Path
) -> None:
    """learning.json, learning.md and learning.png of the runs so far."""
    meta = {
        "command": "python " + " ".join(["benchmarks/learning.py", *sys.argv[1:]]),
        "machine": f"CPU, {os.cpu_count()} cores",
        "minutes": (time.monotonic() - t0) / 60,
        "steps": plan["steps"],
        "samples": plan["samples"],
        "calibration": cal,
        "reward_spread": calibration_spread(work),
        "before": before,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "learning.json").write_text(json.dumps(runs, indent=1))
    (work / "meta.json").write_text(json.dumps(meta, indent=1))
    (out / "learning.md").write_text(markdown(runs, before, meta))
    note = plot(runs, out / "learning.png")
    if note:
        print(note, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
