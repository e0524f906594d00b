"""benchmarks/kernelbench.py's report: per-set and per-level latency and verdict counts, the
honest solutions' share judged ok against its target, and the Markdown and JSON files beside the
results. Reads finished rows only; running the evaluations is kernelbench.py's."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

TARGET_P50_S, TARGET_P95_S = 10.0, 60.0
TARGET_HONEST_OK = 0.95
FUSION_COVERAGE = 0.9  # below: a library does part of the forward's device work


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def summarize(rows: list[dict], wall_s: float | None) -> dict:
    walls = [r["wall_s"] for r in rows]
    classes = {
        c: sum(r["class"] == c for r in rows) for c in ("ok", "false_rejection", "harness_failure")
    }
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    phase_names = sorted({k for r in rows for k in r["phases"]})
    phases = {
        k: round(statistics.median([r["phases"].get(k, 0.0) for r in rows]), 3) for k in phase_names
    }
    return {
        "evaluations": len(rows),
        "classes": classes,
        "statuses": statuses,
        "p50_s": _pct(walls, 0.5),
        "p95_s": _pct(walls, 0.95),
        "max_s": max(walls, default=None),
        "median_phase_s": phases,
        "wall_s": wall_s,
        "evals_per_gpu_hour": round(len(rows) / wall_s * 3600, 1) if wall_s else None,
    }


def honest_summary(rows: list[dict]) -> dict:
    """What the honest-solutions run is judged by: the share ok, and the reward of solutions
    whose forward leaves part of its device work to a library (by the trusted profile's
    coverage) against pure-Triton ones."""
    ok = [r for r in rows if r["status"] == "ok"]
    fused = [
        r["reward"] for r in ok if r.get("coverage") is not None and r["coverage"] < FUSION_COVERAGE
    ]
    pure = [
        r["reward"]
        for r in ok
        if r.get("coverage") is not None and r["coverage"] >= FUSION_COVERAGE
    ]
    med = lambda xs: round(statistics.median(xs), 4) if xs else None  # noqa: E731
    return {
        "ok_share": round(len(ok) / len(rows), 4) if rows else None,
        "library_fusions": {"n": len(fused), "median_reward": med(fused)},
        "pure_triton": {"n": len(pure), "median_reward": med(pure)},
    }


def write_report(out: Path, device: str, meta: dict, rows: list[dict], wall_s: float | None) -> str:
    honest = bool(meta.get("solutions"))
    levels = sorted({r["problem"].partition("/")[0] for r in rows})
    summary = {
        "all": summarize(rows, wall_s),
        **{
            lv: summarize([r for r in rows if r["problem"].startswith(lv + "/")], None)
            for lv in levels
        },
    }
    s = summary["all"]
    met = lambda ok: "met" if ok else "NOT met"  # noqa: E731
    what = (
        f"honest solutions from {meta['solutions']}"
        if honest
        else "a generated candidate per problem"
    )
    lines = [
        "# KernelBench at real sizes through the evaluator",
        "",
        f"{device} ({meta['device_name']}), {what}, {meta['concurrency']} evaluations at once, "
        f"policy {meta['policy']}, {meta['date']}; {meta['problems']} selected, "
        f"{len(rows)} with a result.",
        "",
    ]
    if device == "cpu":
        lines.append("**CPU-interpreter numbers** (Triton's interpreter on CPU tensors).\n")
    if meta.get("note"):
        lines += [meta["note"], ""]
    lines += [
        "| set | evals | ok | false rejections | harness failures | p50 s | p95 s | max s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, d in summary.items():
        c = d["classes"]
        lines.append(
            f"| {name} | {d['evaluations']} | {c['ok']} | {c['false_rejection']} | "
            f"{c['harness_failure']} | {d['p50_s']} | {d['p95_s']} | {d['max_s']} |"
        )
    lines += [
        "",
        f"Statuses: {json.dumps(s['statuses'])}. Median seconds per phase: "
        f"{json.dumps(s['median_phase_s'])}.",
    ]
    if wall_s:
        unit = "host" if device == "cpu" else "GPU"
        shards = f" over GPUs {meta['gpus']}, one process each" if meta.get("gpus") else ""
        lines.append(
            f"Throughput on this mix: {s['evals_per_gpu_hour']} evaluations per {unit}-hour "
            f"({len(rows)} in {wall_s:.0f} {unit}-seconds{shards})."
        )
    lines += [
        "",
        f"Targets: no harness failures: {met(s['classes']['harness_failure'] == 0)}; "
        f"p50 <= {TARGET_P50_S:g} s: {met(s['p50_s'] is not None and s['p50_s'] <= TARGET_P50_S)}; "
        f"p95 <= {TARGET_P95_S:g} s: {met(s['p95_s'] is not None and s['p95_s'] <= TARGET_P95_S)}.",
    ]
    if honest:
        h = summary["honest"] = honest_summary(rows)
        fused, pure = h["library_fusions"], h["pure_triton"]
        share = "none yet" if h["ok_share"] is None else f"{h['ok_share']:.1%}"
        lines += [
            f"Honest solutions ok: {share} (target >= {TARGET_HONEST_OK:.0%}: "
            f"{met(h['ok_share'] is not None and h['ok_share'] >= TARGET_HONEST_OK)}). Median "
            f"reward of the ok ones: library + Triton (coverage < {FUSION_COVERAGE:g}) "
            f"{fused['median_reward']} over {fused['n']}, pure Triton {pure['median_reward']} "
            f"over {pure['n']}."
        ]
    lines += [
        "",
        "| problem | solution | status | wall s | coverage | reward | host peak GiB "
        "| device peak GiB | why not ok |",
        "|---|---|---|---:|---:|---:|---:|---:|---|",
    ]
    gib = lambda b: f"{b / (1 << 30):.1f}" if b else ""  # noqa: E731
    num = lambda x: "" if x is None else f"{x:.3f}"  # noqa: E731
    for r in sorted(rows, key=lambda r: (r["class"] == "ok", r["problem"])):
        why = r["feedback"].replace("\n", " ").replace("|", "/")[:160]
        lines.append(
            f"| {r['problem']} | {r.get('solution') or ''} | {r['status']} | {r['wall_s']} | "
            f"{num(r.get('coverage'))} | {num(r.get('reward'))} | {gib(r['host_peak_rss_bytes'])} "
            f"| {gib(r['device_peak_used_bytes'])} | {why} |"
        )
    text = "\n".join(lines) + "\n"
    name = f"kernelbench_honest_{device}" if honest else f"kernelbench_{device}"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.md").write_text(text)
    (out / f"{name}.json").write_text(
        json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=2, default=str) + "\n"
    )
    return text
