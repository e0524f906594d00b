"""Asynchronous pipeline against lockstep (generate, evaluate, train) with real processes.

Both modes run `krl run` on the same config: the learner with its hub (DeepSpeed on
the CPU, training the tiny model on every group's real tokens and publishing weights
after every step), the broker, `--evaluators` workers and `--actors` actors (a real
vLLM CPU engine each, pulling and loading every published version). What is simulated
is only the cost of the two slow stages, so their proportions are those of a real run
rather than whatever a random tiny model costs:

  generation   actor.simulate.generation_s per turn (the engine's real answer of at most
               --max-tokens tokens, then a wait up to the drawn target, +- jitter)
  evaluation   evaluator.simulate: every answer is sent through the broker to a worker
               slot that waits evaluator.simulate.latency_s (+- jitter) and returns a
               seeded random verdict (ok with a speedup, or incorrect)

  async   learner.max_staleness = --staleness (default: the config's, 2): actors generate
          the next batches while the learner trains on this one (a lease goes only to an actor
          whose weights will still be within max_staleness when its group is trained); a
          second async run at --also-staleness (default 1) shows the limit of one version
  sync    learner.max_staleness = 0 and learner.hub.synchronous: a lease goes only to an
          actor holding the newest weights, so each batch is generated, evaluated and
          trained in lockstep (publish, pull and load are on the critical path)

The default latencies put the regime real kernel RL runs in: a step's worth of rollouts
(all its groups at once; each actor runs --groups-in-flight groups concurrently, so the
actors are not the bottleneck) takes 1.5-2x the train step. Bound (`_bound`): with R the
lockstep rollout time (sync s/step - train s/step: generation, evaluation, publish, pull,
load) and T the train step, lockstep's period is R + T. Admission lets the batch trained
at version k be leased when the learner reaches version k - max_staleness, i.e. while
step k - max_staleness - 1 is being trained, so async's period is at best
max(T, (R + T) / (max_staleness + 1)) and the learner idles 1 - T / period of the time.

The learner's processes run on one half of the CPUs and every other role's on the other
(`Pinning`; `--no-pin` turns it off), the CPU stand-in for separate GPUs: on 2 shared CPUs
the actors' real engine work would otherwise slow the async learner's steps.

Measured from the learner's Prometheus counters, scraped every 0.25 s, over the steps
after --warmup-steps (engine start-up and the first batch are excluded): groups/s and
trained tokens/s, the learner's idle ratio (krl_learner_idle_seconds_total per wall
second) and the staleness of groups on arrival (krl_learner_group_staleness_versions).

    flock /tmp/krl-heavy.lock .venv/bin/python benchmarks/pipeline.py     # ~10 min on 2 CPUs
    # rewrite the .md from the .json:
    .venv/bin/python benchmarks/pipeline.py --from-json benchmarks/reports/pipeline.json

Writes benchmarks/reports/pipeline.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

from common.config.learner import LearnerConfig
from common.ports import free_port
from common.run_records import Summary, read_summary

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO, TARGET_IDLE = 2.0, 0.10
DEFAULT_STALENESS = LearnerConfig().max_staleness  # issue #7's targets are at the default
_SAMPLE = re.compile(r"^(krl_learner_[a-z_]+?)(?:\{([^}]*)\})? ([-+0-9.eEinfa]+)$")


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _config(args, mode: str, model: str, run_dir: Path) -> dict:
    def ep() -> str:
        return f"tcp://127.0.0.1:{free_port()}"

    sync = mode == "sync"
    return {
        "run_dir": str(run_dir),
        "seed": 0,
        "supervisor": {
            "actors": args.actors,
            "evaluators": args.evaluators,
            "progress_interval_s": 30,
            "stop_timeout_s": 20,
        },
        "broker": {"frontend": ep(), "backend": ep()},
        "evaluator": {
            "device": "cpu",
            "worker": {"slots": 64, "warm_up": False},
            "simulate": {
                "enabled": True,
                "latency_s": args.eval_s,
                "jitter": args.jitter,
                "correct_prob": 0.4,
            },
        },
        "hub_link": {"endpoint": ep(), "publish_endpoint": ep()},
        "actor": {
            "model": model,
            "max_groups_in_flight": args.groups_in_flight,
            "engine": {
                "dtype": "float32",
                "max_model_len": 2048,
                "max_num_seqs": 64,
                "kv_cache_bytes": 256 << 20,
            },
            "sampling": {"max_tokens": args.max_tokens, "seed": 0},
            "prompts": {"min_response_tokens": args.max_tokens, "feedback_max_tokens": 64},
            "eval": {"timing": False, "profile": False},
            "simulate": {
                "generation_s": args.generation_s,
                "generation_jitter": args.jitter,
                "evaluate_every_answer": True,
            },
        },
        "learner": {
            "dataset": args.dataset,
            "max_steps": args.steps,
            "groups_per_step": args.groups_per_step,
            "n_samples": args.n_samples,
            "max_turns": args.max_turns,
            "max_staleness": 0 if sync else args.staleness,
            "lr": 1e-5,
            "batch_timeout_s": 0.5,
            "checkpoint_every": 10_000,
            "hub": {"synchronous": sync, "retry_after_s": args.retry_after_s},
            "algorithm": {"mrs": {"enabled": False}, "prs": {"enabled": False}},
            "trainer": {"model": model, "zero_stage": 0},
        },
    }


class Pinning:
    """The learner's process group on the first half of the CPUs, every other role's on the
    second: the CPU stand-in for a node where the learner and the actors have GPUs of their
    own (on 2 CPUs, one each). Re-applied to every thread on each poll, since threads and
    engine processes keep starting; torch and OpenMP get one thread per CPU they are given."""

    def __init__(self, enabled: bool):
        cpus = sorted(os.sched_getaffinity(0))
        half = max(1, len(cpus) // 2)
        self.learner, self.others = set(cpus[:half]), set(cpus[half:] or cpus)
        self.enabled, self.done = enabled and len(cpus) > 1, set()

    def env(self) -> dict[str, str]:
        return {"OMP_NUM_THREADS": str(len(self.learner))} if self.enabled else {}

    def apply(self, run_dir: Path) -> None:
        if not self.enabled:
            return
        procs = _read_json(run_dir / "supervisor.json").get("processes", {})
        groups = {
            p["pid"]: (self.learner if name == "learner" else self.others)
            for name, p in procs.items()
            if p.get("pid")
        }
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cpus = groups.get(os.getpgid(int(entry.name)))
                if cpus is None:
                    continue
                for task in (entry / "task").iterdir():
                    if (int(task.name), id(cpus)) not in self.done:
                        os.sched_setaffinity(int(task.name), cpus)
                        self.done.add((int(task.name), id(cpus)))
            except (OSError, ValueError):
                pass  # exited meanwhile


def _scrape(port: int) -> dict[str, float]:
    """The learner's krl_learner_* samples, keyed by name plus labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m:
            out[m.group(1) + (f"{{{m.group(2)}}}" if m.group(2) else "")] = float(m.group(3))
    return out


def _run_mode(args, mode: str, model: str, work: Path) -> dict:
    work.mkdir(parents=True, exist_ok=True)
    run_dir = work / mode
    path = work / f"{mode}.yaml"
    path.write_text(yaml.safe_dump(_config(args, mode, model, run_dir)))
    pin = Pinning(args.pin)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
    }
    env.update(pin.env())
    t_start = time.monotonic()
    with open(work / f"{mode}.out", "wb") as log:  # the child keeps its own copy
        sup = subprocess.Popen(
            [sys.executable, "-m", "launcher.cli", "run", str(path)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
    samples: list[tuple[float, dict]] = []
    try:
        while sup.poll() is None:
            if time.monotonic() - t_start > args.timeout_s:
                raise TimeoutError(f"{mode}: no result within {args.timeout_s}s; see {work}")
            port = (
                _read_json(run_dir / "supervisor.json")
                .get("processes", {})
                .get("learner", {})
                .get("metrics_port")
            )
            pin.apply(run_dir)
            if port:
                try:
                    samples.append((time.monotonic(), _scrape(port)))
                except OSError:
                    pass  # not serving yet, or already stopped
            time.sleep(0.25)
    finally:
        if sup.poll() is None:
            sup.terminate()
            sup.wait(60)
    summary = read_summary(run_dir)
    if sup.returncode != 0 or summary is None or summary.status != "completed":
        raise RuntimeError(f"{mode}: krl run exited {sup.returncode}; see {work / (mode + '.out')}")
    return _measure(args, mode, samples, summary)


def _measure(args, mode: str, samples: list[tuple[float, dict]], summary: Summary) -> dict:
    def val(s: dict, name: str) -> float:
        return s.get(f"krl_learner_{name}", 0.0)

    # From the first sample that saw the warm-up's last step to the first that saw the
    # final step (after it the learner only writes its last checkpoint).
    final = max(val(s, "steps_total") for _, s in samples)
    t0, a = next((t, s) for t, s in samples if val(s, "steps_total") >= args.warmup_steps)
    t1, b = next((t, s) for t, s in samples if val(s, "steps_total") >= final)
    dt, steps = t1 - t0, val(b, "steps_total") - val(a, "steps_total")
    if steps < 3:
        raise RuntimeError(f"{mode}: only {steps:.0f} steps in the measured window")
    last = samples[-1][1]
    cum = {
        le: v
        for k, v in last.items()
        if (le := _label(k, "krl_learner_group_staleness_versions_bucket", "le")) is not None
    }
    staleness, prev = {}, 0.0
    for le in sorted(cum, key=float):
        staleness[le] = int(cum[le] - prev)
        prev = cum[le]
    outcomes = {
        o: int(v)
        for k, v in last.items()
        if (o := _label(k, "krl_learner_groups_received_total", "outcome")) is not None
    }
    return {
        "mode": mode,
        "steps_measured": int(steps),
        "window_s": round(dt, 2),
        "groups_per_s": round(steps * args.groups_per_step / dt, 4),
        "tokens_per_s": round((val(b, "tokens_total") - val(a, "tokens_total")) / dt, 1),
        "step_period_s": round(dt / steps, 3),
        "learner_idle_ratio": round(
            (val(b, "idle_seconds_total") - val(a, "idle_seconds_total")) / dt, 4
        ),
        "learner_busy_ratio": round(
            (val(b, "busy_seconds_total") - val(a, "busy_seconds_total")) / dt, 4
        ),
        "train_s_per_step": round(
            (val(b, "busy_seconds_total") - val(a, "busy_seconds_total")) / steps, 3
        ),
        "staleness_on_arrival": {k: v for k, v in staleness.items() if v},
        "groups_received": outcomes,
        "learner_steps": summary.learner_steps,
        "leases_withheld": int(val(last, "leases_withheld_total")),
        "restarts": summary.restarts,
    }


def _bound(sync: dict, train_s: float, staleness: int) -> dict:
    """Async's best against the measured lockstep run (module docstring): the step period,
    throughput ratio and learner idle ratio it reaches if nothing else gets in the way."""
    rollout = sync["step_period_s"] - sync["train_s_per_step"]
    period = max(train_s, (rollout + train_s) / (staleness + 1))
    return {
        "rollout_s": round(rollout, 3),
        "train_s": round(train_s, 3),
        "period_s": round(period, 3),
        "ratio": round(sync["step_period_s"] / period, 3),
        "idle": round(1 - train_s / period, 4),
        "one_batch_overlap_ratio": round((rollout + train_s) / max(rollout, train_s), 3),
    }


def _label(key: str, name: str, label: str):
    if not key.startswith(name + "{"):
        return None
    m = re.search(rf'{label}="([^"]*)"', key)
    return m.group(1) if m else None


def _report(args, results: dict, out: Path, meta: dict | None = None) -> None:
    a, s = results["async"], results["sync"]
    ratio = a["groups_per_s"] / s["groups_per_s"]
    met = ratio >= TARGET_RATIO and a["learner_idle_ratio"] <= TARGET_IDLE
    meta = meta or {
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
    }
    setup = {
        k: getattr(args, k)
        for k in (
            "dataset",
            "steps",
            "warmup_steps",
            "groups_per_step",
            "n_samples",
            "max_turns",
            "max_tokens",
            "generation_s",
            "eval_s",
            "jitter",
            "actors",
            "groups_in_flight",
            "evaluators",
            "staleness",
            "retry_after_s",
            "pin",
        )
    }
    group_s = args.max_turns * (args.generation_s + args.eval_s)
    bound = _bound(s, a["train_s_per_step"], args.staleness)
    extra = results.get("other_staleness")
    a["mode"] = f"async, max_staleness {args.staleness}"
    if extra:
        extra["bound"] = _bound(s, extra["async"]["train_s_per_step"], extra["staleness"])
        extra["async"]["mode"] = f"async, max_staleness {extra['staleness']}"
    data = {
        "meta": meta,
        "setup": setup,
        "simulated_group_latency_s": group_s,
        "group_to_train_ratio": round(group_s / a["train_s_per_step"], 3),
        "bound": bound,
        "results": results,
        "throughput_ratio": round(ratio, 3),
        "targets": {"ratio": TARGET_RATIO, "async_idle": TARGET_IDLE, "met": met},
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "pipeline.json").write_text(json.dumps(data, indent=2) + "\n")
    rows = "\n".join(_row(r, s) for r in [s, a] + ([extra["async"]] if extra else []))
    md = f"""# Pipeline: asynchronous vs lockstep (real processes, simulated latencies)

{meta["host"]}, {meta["cpus"]} CPUs (load {meta["load_avg_1m"]} at the end), {meta["date"]}.
`krl run`: learner + hub (DeepSpeed ZeRO-0, CPU, tiny Qwen2), broker, {args.evaluators} evaluator
worker(s), {args.actors} actor(s) with a vLLM CPU engine each and up to \
{args.groups_in_flight} groups in
flight each; {args.groups_per_step} groups/step x {args.n_samples} samples x \
{args.max_turns} turns, <= {args.max_tokens} real
tokens per turn. Simulated: generation {args.generation_s} s/turn, evaluation {args.eval_s} s/turn
(+-{args.jitter:.0%}), so one group takes ~{group_s:.2f} s, \
{group_s / a["train_s_per_step"]:.2f}x the train step
(all groups of a batch run at once); measured over steps {args.warmup_steps + 1}..{args.steps}.

{_TABLE_HEAD}
{rows}

Throughput ratio async/sync at max_staleness {args.staleness}{_default_note(args.staleness)}: \
**{ratio:.2f}x**; async learner
idle **{a["learner_idle_ratio"]:.1%}** (targets >= {TARGET_RATIO:g}x and \
<= {TARGET_IDLE:.0%}: {"met" if met else "NOT met"}).
Bound at max_staleness {args.staleness}: {_bound_line(bound)}.
{_extra_line(extra)}
Notes
- Why these latencies: in real kernel RL a step's rollouts (multi-turn generation plus GPU
  evaluation of every turn) take longer than the update, so a group here takes
  {group_s / a["train_s_per_step"]:.2f}x the train step; each actor runs up to \
{args.groups_in_flight} groups at once
  (simulated generation is a wait), so the actors are not the bottleneck.
- The bound: R = lockstep rollout time (sync s/step - train s/step: generation, evaluation,
  publish, pull, load, leases), T = train s/step. Lockstep's period is R + T. The hub
  leases the batch trained at version k once the learner reaches version k - max_staleness
  (to actors holding at least that version), i.e. while step k - max_staleness - 1 trains,
  so async's period is at best max(T, (R + T) / (max_staleness + 1)), with the learner idle
  1 - T / period. With R > T and max_staleness 1 that is a ratio of 2x with
  (R - T) / (R + T) idle: a lower idle needs R <= max_staleness x T. (R + T) / max(R, T) is
  the bound if only one batch generated during a train step. R comes from the sync run's
  own split, T from each async run (learner busy s/step: sync {s["train_s_per_step"]} s, async
  {a["train_s_per_step"]} s; run to run noise on a shared 2-CPU box).
- sync = learner.max_staleness 0 + learner.hub.synchronous (leases only to actors holding the
  newest weights): generate+evaluate, train, publish, pull+load, repeat.
- Real: every process, socket, lease, ack, evaluation request through the broker to a worker
  slot, the DeepSpeed step on the real tokens, weight publishing, pulls and engine loads.
  Simulated: the length of a turn's generation (the engine's real answer is padded to the
  target) and the evaluator's work and verdict (evaluator/simulate.py).
- {_pin_note(args.pin)}
- Both modes use hub.retry_after_s {args.retry_after_s} and an actor that asks again as soon as
  new weights load; MRS/PRS are off (a random model's logprob mismatch would mask most data).
"""
    (out / "pipeline.md").write_text(md)


_TABLE_HEAD = (
    "| mode | steps | window s | groups/s | trained tokens/s | s/step | train s/step "
    "| learner idle | ratio vs sync | staleness on arrival (versions: groups) | dropped stale "
    "| leases withheld (old weights) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"
)


def _row(r: dict, sync: dict) -> str:
    return (
        f"| {r['mode']} | {r['steps_measured']} | {r['window_s']} | {r['groups_per_s']} | "
        f"{r['tokens_per_s']} | {r['step_period_s']} | {r['train_s_per_step']} | "
        f"{r['learner_idle_ratio']:.1%} | {r['groups_per_s'] / sync['groups_per_s']:.2f}x | "
        f"{_hist(r['staleness_on_arrival'])} | {_wasted(r['groups_received'])} | "
        f"{r.get('leases_withheld', '-')} |"
    )


def _bound_line(b: dict) -> str:
    return (
        f"R = {b['rollout_s']} s, T = {b['train_s']} s: period >= {b['period_s']} s, ratio <= "
        f"**{b['ratio']:.2f}x** with learner idle >= **{b['idle']:.1%}** "
        f"(one-batch overlap: {b['one_batch_overlap_ratio']:.2f}x)"
    )


def _default_note(staleness: int) -> str:
    return (
        " (the default)"
        if staleness == DEFAULT_STALENESS
        else f" (not the default {DEFAULT_STALENESS})"
    )


def _extra_line(extra: dict | None) -> str:
    if not extra:
        return ""
    r = extra["async"]
    return (
        f"\nThe same latencies at max_staleness {extra['staleness']}: ratio "
        f"**{r['groups_per_s'] / extra['sync_groups_per_s']:.2f}x**, learner idle "
        f"**{r['learner_idle_ratio']:.1%}**; bound: {_bound_line(extra['bound'])}.\n"
    )


def _pin_note(pinned: bool) -> str:
    if not pinned:
        return "Unpinned: every process shares every CPU."
    pin = Pinning(True)
    return (
        f"The learner runs on CPU(s) {sorted(pin.learner)}, every other process on "
        f"{sorted(pin.others)} (OMP_NUM_THREADS={len(pin.learner)}), as the learner and the "
        "actors would each have GPUs of their own; unpinned, the actors' real engine work "
        "slowed the async learner's steps by a third on 2 CPUs."
    )


def _wasted(outcomes: dict) -> int:
    return outcomes.get("stale", 0) + outcomes.get("stale_in_buffer", 0)


def _hist(h: dict) -> str:
    return ", ".join(f"{k.replace('.0', '')}: {v}" for k, v in h.items()) or "-"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=24)
    p.add_argument(
        "--dataset", default="builtin:activation", help="learner.dataset (short prompts)"
    )
    p.add_argument("--warmup-steps", type=int, default=4)
    p.add_argument("--groups-per-step", type=int, default=4)
    p.add_argument("--n-samples", type=int, default=2)
    p.add_argument("--max-turns", type=int, default=2)
    p.add_argument("--max-tokens", type=int, default=8)
    p.add_argument("--generation-s", type=float, default=1.3, help="simulated seconds per turn")
    p.add_argument("--eval-s", type=float, default=0.5, help="simulated seconds per evaluation")
    p.add_argument("--jitter", type=float, default=0.2)
    p.add_argument("--actors", type=int, default=2)
    p.add_argument(
        "--groups-in-flight",
        type=int,
        default=16,
        help="actor.max_groups_in_flight: groups each actor generates at once",
    )
    p.add_argument("--evaluators", type=int, default=1)
    p.add_argument(
        "--staleness",
        type=int,
        default=DEFAULT_STALENESS,
        help=f"async max_staleness (default: learner.max_staleness's, {DEFAULT_STALENESS})",
    )
    p.add_argument("--retry-after-s", type=float, default=0.1)
    p.add_argument("--modes", default="sync,async")
    p.add_argument(
        "--also-staleness",
        type=int,
        default=1,
        help="also run async at this max_staleness, same latencies (0: skip)",
    )
    p.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="do not split the CPUs between the learner and the other roles",
    )
    p.add_argument("--timeout-s", type=float, default=900)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "reports")
    p.add_argument("--keep", action="store_true", help="keep the run directories")
    p.add_argument(
        "--from-json", type=Path, help="only rewrite the reports from a saved pipeline.json"
    )
    args = p.parse_args()
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        run_args = argparse.Namespace(**{**vars(args), **saved["setup"]})
        _report(run_args, saved["results"], args.out, saved["meta"])
        print((args.out / "pipeline.md").read_text())
        return 0
    sys.path.insert(0, str(ROOT))
    from actor.tiny_model import build

    work = Path(tempfile.mkdtemp(prefix="krl-pipeline-"))
    model = str(build(work / "model", seed=0))
    results = {}
    for mode in args.modes.split(","):
        results[mode] = _run_mode(args, mode, model, work)
        print(json.dumps(results[mode]), flush=True)
    if args.also_staleness > 0 and "sync" in results:  # against the same lockstep run
        other = argparse.Namespace(**{**vars(args), "staleness": args.also_staleness})
        r = _run_mode(other, "async", model, work / f"staleness{args.also_staleness}")
        results["other_staleness"] = {
            "staleness": args.also_staleness,
            "async": r,
            "sync_groups_per_s": results["sync"]["groups_per_s"],
        }
        print(json.dumps(r), flush=True)
    if {"sync", "async"} <= results.keys():
        _report(args, results, args.out)
        print((args.out / "pipeline.md").read_text())
    print(f"run directories: {work}" if args.keep else "", end="")
    if not args.keep:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
