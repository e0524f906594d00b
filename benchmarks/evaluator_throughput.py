"""Evaluations per GPU-hour through `krl broker` + `krl evaluator` against a fresh Python
process per evaluation (`krl check`), measured in the same run.

The mix: for each built-in problem, two correct candidates (its reference solution),
one incorrect (the first stored value doubled), one compile error and one runtime
error; every fourth problem adds one that crashes its sandbox (an out-of-bounds load).
Every candidate carries a unique comment, so no result cache answers for it; the
service's reference-output cache does work across the samples of one problem, as
it does in training.

  service    one worker per device (CUDA_VISIBLE_DEVICES=i; on CPU `--workers`), each
             with `--children` warm sandboxes; the whole mix submitted at once
             through common.eval_client. Worker start-up is excluded (paid once per
             run of days) and reported.
  baseline   `python -m launcher.cli check ... --json` per evaluation: a new interpreter
             and sandbox each time, the same evaluator config, checks and trial counts
             (`--baseline-evals` of the mix, in the mix's proportions); one evaluation
             per GPU at a time (KernelGYM's default). On the CPU it runs as many at
             once as the service has children, so both use the same cores, and the
             unit is evaluations per host-hour.
  timing     one correct candidate per problem again, one request at a time, twice:
             speedup and candidate time under the concurrent load vs alone (target
             within 5%), and alone vs alone (the noise floor).

    python3 benchmarks/evaluator_throughput.py --device cuda     # the GPU machine, ~5-8 min
    .venv/bin/python benchmarks/evaluator_throughput.py --device cpu     # 4 problems, ~2 min

Without pyzmq/msgspec installed, wheels in .whl/ are unpacked into .whl/site and used.

On the CPU the Triton interpreter stands in for the GPU: the numbers are CPU-interpreter
numbers. Writes benchmarks/reports/evaluator_throughput.md and .json.
"""

from __future__ import annotations

import argparse
import ast
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_RATIO = 10.0
TIMING_TOLERANCE = 0.05


def _bootstrap() -> list[str]:
    """Make pyzmq/msgspec (and any other wheel carried in .whl/) importable without pip:
    wheels are zip files; unpack them once into .whl/site and put that on the path."""
    sys.path.insert(0, str(ROOT))
    try:
        import msgspec  # noqa: F401
        import zmq  # noqa: F401

        return []
    except ImportError:
        wheels = sorted((ROOT / ".whl").glob("*.whl"))
        if not wheels:
            raise
    site = ROOT / ".whl" / "site"
    for wheel in wheels:
        stamp = site / f".{wheel.name}.unpacked"
        if not stamp.exists():
            with zipfile.ZipFile(wheel) as z:
                z.extractall(site)
            stamp.touch()
    sys.path.insert(0, str(site))
    return [str(site)]


EXTRA_PATHS = _bootstrap()

import asyncio
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import yaml

from common.config import RunConfig, load
from common.eval_client import EvalClient
from common.messages import EvalSettings, new_id
from common.ports import free_port
from common.problemset import builtin_problems, to_payload


# --------------------------------------------------------------------------- the mix
def _first_call(tree: ast.AST, attr: str) -> ast.Call:
    return next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == attr
    )


def variant(source: str, kind: str) -> str:
    """A failing version of a correct solution (AST edits, so it works for any problem)."""
    if kind == "correct":
        return source
    if kind == "compile_error":
        return source + "\n\ndef broken(:\n    pass\n"
    tree = ast.parse(source)
    if kind == "incorrect":  # the first stored value, doubled plus one
        call = _first_call(tree, "store")
        call.args[1] = ast.BinOp(
            ast.BinOp(call.args[1], ast.Mult(), ast.Constant(2)), ast.Add(), ast.Constant(1)
        )
    elif kind == "runtime_error":  # forward reads an attribute that does not exist
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew")
        fwd = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
        fwd.body.insert(0, ast.parse("self.no_such_attribute.clear()").body[0])
    elif kind == "crash":  # out-of-bounds load: SIGSEGV under the interpreter, a fault on a GPU
        call = _first_call(tree, "load")
        call.args[0] = ast.BinOp(call.args[0], ast.Add(), ast.Constant(1 << 44))
        call.keywords = [k for k in call.keywords if k.arg not in ("mask", "other")]
    return ast.unparse(ast.fix_missing_locations(tree))


# A GPU may report an out-of-bounds load as a CUDA error (runtime_error) rather than a dead child.
EXPECTED = {
    "correct": {"ok"},
    "incorrect": {"incorrect"},
    "compile_error": {"compile_error"},
    "runtime_error": {"runtime_error"},
    "crash": {"crashed", "runtime_error"},
}


def build_mix(n_problems: int) -> list[dict]:
    pool = [p for p in builtin_problems() if p.solution]
    n_problems = min(n_problems, len(pool))
    problems = [
        pool[i * len(pool) // n_problems] for i in range(n_problems)
    ]  # spread over families
    mix = []
    for i, p in enumerate(problems):
        kinds = ["correct", "correct", "incorrect", "compile_error", "runtime_error"]
        kinds += ["crash"] if i % 4 == 3 else []
        for kind in kinds:
            mix.append({"problem": p, "kind": kind, "source": variant(p.solution, kind)})
    return mix


def tagged(item: dict, tag: str) -> str:
    return f"{item['source']}\n# {tag} {new_id()}\n"


# --------------------------------------------------------------------------- processes


def _env(device_index: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *EXTRA_PATHS, env.get("PYTHONPATH", "")])
    if device_index is not None:
        env["CUDA_VISIBLE_DEVICES"] = str(device_index)
    return env


def write_config(tmp: Path, device: str, children: int, overrides: list[str]) -> Path:
    tree = {
        "transport": {"heartbeat_interval_s": 1.0},
        "broker": {
            "frontend": f"tcp://127.0.0.1:{free_port()}",
            "backend": f"tcp://127.0.0.1:{free_port()}",
            "metrics": {"port": free_port()},
            "max_queued": 100000,
            "client": {"max_in_flight": 100000, "request_deadline_s": 7200},
        },
        "evaluator": {"device": device, "children": children, "metrics": {"enabled": False}},
    }
    if device == "cpu":
        tree["evaluator"].update(
            timeout_s=120,
            startup_timeout_s=300,
            sandbox={"memory_limit_bytes": 3 << 30, "cpu_address_space_bytes": 6 << 30},
        )
    for item in overrides:  # dotted key=value, as on the krl command line
        key, _, value = item.partition("=")
        *parents, leaf = key.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = yaml.safe_load(value)
    path = tmp / "run.yaml"
    path.write_text(yaml.safe_dump(tree))
    return path


class Service:
    def __init__(self, cfg_path: Path, n_workers: int, device: str, logs: Path):
        self.cfg = load(cfg_path, [], RunConfig)
        self.procs: list[subprocess.Popen] = []
        self._spawn(["broker", str(cfg_path)], _env(None), logs / "broker.log")
        for i in range(n_workers):
            self._spawn(
                ["evaluator", str(cfg_path), f"evaluator.worker.worker_id=w{i}"],
                _env(i if device == "cuda" else None),
                logs / f"worker{i}.log",
            )
        t0 = time.monotonic()
        while self.workers() < n_workers:
            if any(p.poll() is not None for p in self.procs):
                raise RuntimeError(f"a service process exited; see the logs in {logs}")
            if time.monotonic() - t0 > 600:
                raise RuntimeError("workers did not start within 600 s")
            time.sleep(0.5)
        self.startup_s = time.monotonic() - t0

    def _spawn(self, args: list[str], env: dict[str, str], log: Path) -> None:
        with open(log, "wb") as f:  # the child keeps its own copy of the descriptor
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "launcher.cli", *args],
                    cwd=ROOT,
                    env=env,
                    stdout=f,
                    stderr=subprocess.STDOUT,
                )
            )

    def workers(self) -> int:
        url = f"http://127.0.0.1:{self.cfg.broker.metrics.port}/health"
        try:
            return json.loads(urllib.request.urlopen(url, timeout=2).read())["workers"]
        except OSError:
            return 0

    def close(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.wait(timeout=60)


async def run_service(
    client: EvalClient,
    mix: list[dict],
    settings: EvalSettings,
    tag: str,
    one_at_a_time: bool = False,
) -> tuple[list[dict], float]:
    async def one(item):
        t = time.monotonic()
        r = await client.evaluate(to_payload(item["problem"]), tagged(item, tag), settings)
        return {
            "problem": item["problem"].name,
            "kind": item["kind"],
            "status": r.verdict.status,
            "latency_s": time.monotonic() - t,
            "speedup": r.verdict.speedup,
            "candidate_time_s": r.verdict.candidate_time_s,
            "cached": r.cached,
            "phases": {k: round(v, 3) for k, v in r.verdict.phase_seconds.items()},
        }

    t0 = time.monotonic()
    if one_at_a_time:
        rows = [await one(item) for item in mix]
    else:
        rows = await asyncio.gather(*(one(item) for item in mix))
    return list(rows), time.monotonic() - t0


def run_baseline(
    mix: list[dict], cfg_path: Path, device: str, parallel: int, tmp: Path
) -> tuple[list[dict], float]:
    def one(args):
        i, item = args
        cand = tmp / f"cand_{i}.py"
        cand.write_text(tagged(item, "baseline"))
        t = time.monotonic()
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "launcher.cli",
                "check",
                "--problem",
                f"builtin:{item['problem'].name}",
                "--candidate",
                str(cand),
                "--device",
                device,
                "--json",
                "--config",
                str(cfg_path),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env=_env(i % parallel if device == "cuda" else None),
        )
        verdict = (
            json.loads(out.stdout) if out.returncode == 0 else {"status": f"exit {out.returncode}"}
        )
        row = {
            "problem": item["problem"].name,
            "kind": item["kind"],
            "status": verdict["status"],
            "latency_s": time.monotonic() - t,
            "speedup": verdict.get("speedup"),
            "phases": verdict.get("phase_seconds") or {},
        }
        print(
            f"  baseline {i}: {row['problem']} {row['kind']} -> {row['status']} in "
            f"{row['latency_s']:.1f}s",
            flush=True,
        )
        return row

    t0 = time.monotonic()
    with ThreadPoolExecutor(
        parallel
    ) as pool:  # one fresh process per GPU (per core on CPU) at a time
        rows = list(pool.map(one, enumerate(mix)))
    return rows, time.monotonic() - t0


# --------------------------------------------------------------------------- report
def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def summarize(rows: list[dict], wall_s: float, n_units: int) -> dict:
    lat = [r["latency_s"] for r in rows]
    return {
        "evaluations": len(rows),
        "wall_s": round(wall_s, 2),
        "per_unit_hour": round(len(rows) / wall_s * 3600 / n_units, 1),
        "p50_s": round(_pct(lat, 0.5), 3),
        "p95_s": round(_pct(lat, 0.95), 3),
        "wrong_status": sum(r["status"] not in EXPECTED[r["kind"]] for r in rows),
    }


def timing_drift(loaded: list[dict], alone: list[dict]) -> dict:
    """Per correct candidate: concurrent / alone for speedup and candidate time."""
    by_key = {}
    for r in alone:
        by_key.setdefault(r["problem"], r)
    sp, ct = [], []
    for r in loaded:
        a = by_key.get(r["problem"])
        if (
            r["kind"] != "correct"
            or r["status"] != "ok"
            or a is None
            or not a["speedup"]
            or not r["speedup"]
        ):
            continue
        sp.append(r["speedup"] / a["speedup"])
        ct.append(r["candidate_time_s"] / a["candidate_time_s"])
    dev = [abs(x - 1) for x in sp]
    return {
        "speedup_ratio_median": round(statistics.median(sp), 4) if sp else None,
        "speedup_dev_median": round(statistics.median(dev), 4) if dev else None,
        "speedup_dev_max": round(max(dev), 4) if dev else None,
        "candidate_time_ratio_median": round(statistics.median(ct), 4) if ct else None,
        "within_5pct": bool(dev) and statistics.median(dev) <= TIMING_TOLERANCE,
        "n": len(sp),
    }


def phase_table(rows: dict) -> list[str]:
    """Median seconds per pipeline phase of the ok verdicts: where an evaluation's time goes."""
    paths = [
        (name, [r for r in rows.get(key, []) if r["status"] == "ok" and r.get("phases")])
        for name, key in (
            ("alone", "alone"),
            ("under load", "service"),
            ("fresh process", "baseline"),
        )
    ]
    names = list(dict.fromkeys(k for _, rs in paths for r in rs for k in r["phases"]))
    if not names:
        return []
    out = [
        "",
        "Where an ok evaluation's time goes (median seconds per phase, as the verdict reports it):",
        "",
        "| path | n | " + " | ".join(names) + " |",
        "|---|---:|" + "---:|" * len(names),
    ]
    for name, rs in paths:
        if rs:
            med = [statistics.median(r["phases"].get(k, 0.0) for r in rs) for k in names]
            out.append(f"| {name} | {len(rs)} | " + " | ".join(f"{m:.2f}" for m in med) + " |")
    return out


def write_report(out: Path, result: dict) -> str:
    meta, t, noise = result["meta"], result["timing"], result["noise"]
    unit = "host" if meta["device"] == "cpu" else "GPU"
    verdict = "met" if result["ratio"] >= TARGET_RATIO else "NOT met"
    lines = [
        "# Evaluator throughput: broker + warm workers vs a fresh process per evaluation",
        "",
        (
            f"{meta['device']} ({meta['device_name']}), {meta['workers']} worker(s) x "
            f"{meta['children']} children, {meta['problems']} problems, {meta['host_cpus']} host "
            f"CPUs (load {meta['load_avg_1m']:.1f} at the end), {meta['date']}; baseline "
            f"{meta['baseline_parallel']} process(es) at a time."
        ),
    ]
    if meta["device"] == "cpu":
        lines.append(
            "**CPU-interpreter numbers** (Triton's interpreter on CPU tensors), not GPU numbers."
        )
    lines += [
        "",
        f"| path | evaluations | wall s | evals / {unit}-hour | p50 s | p95 s | wrong status |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in (("service", result["service"]), ("fresh process", result["baseline"])):
        lines.append(
            f"| {name} | {r['evaluations']} | {r['wall_s']} | {r['per_unit_hour']} | "
            f"{r['p50_s']} | {r['p95_s']} | {r['wrong_status']} |"
        )
    lines += [
        "",
        (
            f"Throughput ratio: **{result['ratio']:.1f}x** (target >= {TARGET_RATIO:g}x: "
            f"{verdict}). Service latency includes queueing (the whole mix is submitted at once); "
            f"worker start-up, excluded, took {meta['startup_s']:.1f} s."
        ),
        "",
        (
            "| timings of correct candidates | n | median speedup ratio | median abs dev "
            "| max abs dev | median candidate-time ratio |"
        ),
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, d in (("under load / alone", t), ("alone again / alone (noise)", noise)):
        lines.append(
            f"| {name} | {d['n']} | {d['speedup_ratio_median']} | {d['speedup_dev_median']} | "
            f"{d['speedup_dev_max']} | {d['candidate_time_ratio_median']} |"
        )
    lines += [
        "",
        (
            "Target: median abs dev of the speedup under load <= 5%: "
            + (
                "not measured in this run (--no-drift)."
                if not t["n"]
                else f"{'met' if t['within_5pct'] else 'NOT met'}."
            )
        ),
    ]
    lines += phase_table(result["rows"])
    text = "\n".join(lines) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    (out / "evaluator_throughput.md").write_text(text)
    (out / "evaluator_throughput.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument(
        "--workers", type=int, default=None, help="default: GPUs present (cuda), 1 (cpu)"
    )
    ap.add_argument(
        "--children",
        type=int,
        default=None,
        help="warm sandboxes per worker (default 4 cuda, 2 cpu)",
    )
    ap.add_argument(
        "--problems",
        type=int,
        default=None,
        help="built-in problems in the mix (default 16 cuda, 4 cpu)",
    )
    ap.add_argument(
        "--baseline-evals",
        type=int,
        default=None,
        help="evaluations of the mix the baseline runs (default 24 cuda, 8 cpu)",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="config override for service and baseline, "
        "e.g. evaluator.timing.exclusive_device=false",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "reports")
    ap.add_argument(
        "--no-drift",
        action="store_true",
        help="skip the under-load vs alone timing comparison (the report says it was not run)",
    )
    args = ap.parse_args()
    cuda = args.device == "cuda"
    import torch

    if cuda and not torch.cuda.is_available():
        print("no CUDA device here; use --device cpu", file=sys.stderr)
        return 2
    workers = args.workers or (torch.cuda.device_count() if cuda else 1)
    children = args.children or (4 if cuda else 2)
    mix = build_mix(args.problems or (16 if cuda else 4))
    n_base = min(len(mix), args.baseline_evals or (24 if cuda else 8))  # ~12 s each on a GPU
    base_mix = [mix[round(i * len(mix) / n_base)] for i in range(n_base)]  # the mix's proportions
    settings = EvalSettings(device=args.device, trials=3, timeout_s=120.0)
    with tempfile.TemporaryDirectory(prefix="krl-bench-") as tmp_s:
        tmp = Path(tmp_s)
        cfg_path = write_config(tmp, args.device, children, args.set)
        print(
            f"mix: {len(mix)} evaluations of {len({m['problem'].name for m in mix})} problems; "
            f"{workers} worker(s) x {children} children on {args.device}",
            flush=True,
        )
        svc = Service(cfg_path, workers, args.device, tmp)
        try:
            with EvalClient(svc.cfg.broker, svc.cfg.transport, client_id="bench") as client:
                loaded, wall = asyncio.run(run_service(client, mix, settings, "service"))
                print(f"service: {len(loaded)} in {wall:.1f}s", flush=True)
                correct = [m for m in mix if m["kind"] == "correct"][::2]
                alone = again = []
                if not args.no_drift:
                    alone, _ = asyncio.run(
                        run_service(client, correct, settings, "alone", one_at_a_time=True)
                    )
                    again, _ = asyncio.run(
                        run_service(client, correct, settings, "again", one_at_a_time=True)
                    )
        finally:
            svc.close()
        # GPU: one fresh process per GPU at a time (KernelGYM's default); CPU: as many at once
        # as the service runs children, so both use the same cores.
        parallel = workers if cuda else workers * children
        base_rows, base_wall = run_baseline(base_mix, cfg_path, args.device, parallel, tmp)
        print(f"baseline: {len(base_rows)} in {base_wall:.1f}s", flush=True)
    units = workers if cuda else 1
    service, baseline = summarize(loaded, wall, units), summarize(base_rows, base_wall, units)
    result = {
        "meta": {
            "device": args.device,
            "workers": workers,
            "baseline_parallel": parallel,
            "children": children,
            "problems": len(mix) and len({m["problem"].name for m in mix}),
            "startup_s": round(svc.startup_s, 1),
            "device_name": torch.cuda.get_device_name(0) if cuda else platform.processor() or "cpu",
            "overrides": args.set,
            "host_cpus": os.cpu_count(),
            "load_avg_1m": os.getloadavg()[0],
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        "service": service,
        "baseline": baseline,
        "ratio": service["per_unit_hour"] / baseline["per_unit_hour"],
        "timing": timing_drift(loaded, alone),
        "noise": timing_drift(again, alone),
        "rows": {"service": loaded, "alone": alone, "again": again, "baseline": base_rows},
    }
    print(write_report(args.out, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
