"""`krl benchmark` metrics and report files: JSON, a Markdown table, a PNG plot.

Definitions (also in the README). An episode is one sample of one problem; each of
its turns has a verdict. For a threshold p:

    fast_p(turn) = turn is correct and (p == 0 or its speedup > p)

so Fast@0 is correctness (with timing on, every correct kernel has a speedup > 0).
  - Fast@p at turn t: share of episodes whose turn-t kernel is fast_p; an episode
    that ended before turn t counts as not fast.
  - Fast@p best over turns 1..t: share of episodes with a fast_p kernel at any turn
    <= t. "Best over turns" without t means over all turns of the run.
Shares are over problems x samples (every sample counts as its own attempt).
Sequential test-time scaling reports the same numbers for its longer episodes.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

THRESHOLDS = (0.0, 1.0, 1.2, 1.5, 2.0)


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed, so the PNG plot cannot be drawn."""


@dataclass
class TurnResult:
    status: str
    correct: bool = False
    speedup: float | None = None
    reward: float = 0.0
    evaluated: bool = True


@dataclass
class EpisodeResult:
    problem: str
    sample: int
    end: str
    turns: list[TurnResult] = field(default_factory=list)


def is_fast(turn: TurnResult, p: float) -> bool:
    return turn.correct and (p == 0 or (turn.speedup is not None and turn.speedup > p))


def per_turn(episodes: Sequence[EpisodeResult], turns: int) -> list[dict[str, Any]]:
    """For t = 1..turns: Fast@p at turn t and best over turns 1..t, for every threshold."""
    rows = []
    n = max(len(episodes), 1)
    for t in range(1, turns + 1):
        at = {f"{p:g}": sum(len(e.turns) >= t and is_fast(e.turns[t - 1], p) for e in episodes) / n
              for p in THRESHOLDS}
        best = {f"{p:g}": sum(any(is_fast(x, p) for x in e.turns[:t]) for e in episodes) / n
                for p in THRESHOLDS}
        rows.append({"turn": t, "fast_at_turn": at, "fast_best_so_far": best,
                     "episodes_reaching_turn": sum(len(e.turns) >= t for e in episodes)})
    return rows


def summary(episodes: Sequence[EpisodeResult], turns: int) -> dict[str, Any]:
    rows = per_turn(episodes, turns)
    statuses: dict[str, int] = {}
    for e in episodes:
        for x in e.turns:
            statuses[x.status] = statuses.get(x.status, 0) + 1
    return {"turns": turns, "episodes": len(episodes), "per_turn": rows,
            "best_over_turns": rows[-1]["fast_best_so_far"] if rows else {},
            "statuses": dict(sorted(statuses.items()))}


def report(meta: dict[str, Any], base: Sequence[EpisodeResult], turns: int,
           scaling: Sequence[EpisodeResult] | None = None, scaling_turns: int = 0) -> dict:
    out = {"meta": meta, "multi_turn": summary(base, turns),
           "episodes": [asdict(e) for e in base]}
    if scaling is not None:
        out["scaling"] = summary(scaling, scaling_turns)
        out["scaling_episodes"] = [asdict(e) for e in scaling]
    return out


def markdown(rep: dict) -> str:
    meta = rep["meta"]
    lines = [f"# krl benchmark: {meta['model']}", "",
             (f"Problems: {meta['problems']} ({meta['num_problems']}), samples {meta['samples']}, "
              f"device {meta['device']}. {meta.get('note', '')}"), ""]
    lines += _table("Multi-turn", rep["multi_turn"])
    if "scaling" in rep:
        lines += _table(f"Sequential test-time scaling (window {meta['window']})", rep["scaling"])
    return "\n".join(lines) + "\n"


def _table(title: str, s: dict) -> list[str]:
    at = " | ".join(f"Fast@{p:g}" for p in THRESHOLDS)
    best = " | ".join(f"best Fast@{p:g}" for p in THRESHOLDS)
    lines = [f"## {title}", "", f"Verdicts: {s['statuses']}", "",
             "Fast@p at each turn, then best over turns 1..t.", "",
             f"| turn | episodes | {at} | {best} |",
             "|" + "---|" * (2 + 2 * len(THRESHOLDS))]
    for row in s["per_turn"]:
        at = " | ".join(f"{row['fast_at_turn'][f'{p:g}']:.1%}" for p in THRESHOLDS)
        best = " | ".join(f"{row['fast_best_so_far'][f'{p:g}']:.1%}" for p in THRESHOLDS)
        lines.append(f"| {row['turn']} | {row['episodes_reaching_turn']} | {at} | {best} |")
    best = ", ".join(f"Fast@{p:g} {s['best_over_turns'].get(f'{p:g}', 0):.1%}" for p in THRESHOLDS)
    return lines + ["", f"Best over all {s['turns']} turns: {best}", ""]


def plot(rep: dict, path: Path) -> None:
    """Fast@p by turn (solid: at that turn; dashed: best so far); raises PlotUnavailable."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PlotUnavailable("the PNG plot needs matplotlib, which is not installed "
                              "(pip install matplotlib), or pass --no-plot") from exc
    parts = [("multi-turn", rep["multi_turn"])]
    if "scaling" in rep:
        parts.append(("sequential scaling", rep["scaling"]))
    fig, axes = plt.subplots(1, len(parts), figsize=(6 * len(parts), 4), squeeze=False)
    for ax, (title, s) in zip(axes[0], parts):
        turns = [r["turn"] for r in s["per_turn"]]
        for p in THRESHOLDS:
            line, = ax.plot(turns, [r["fast_at_turn"][f"{p:g}"] for r in s["per_turn"]],
                            marker="o", label=f"Fast@{p:g}")
            ax.plot(turns, [r["fast_best_so_far"][f"{p:g}"] for r in s["per_turn"]],
                    linestyle="--", color=line.get_color())
        ax.set(title=f"{title} (dashed: best so far)", xlabel="turn", ylabel="share of episodes",
               ylim=(0, 1))
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(rep: dict, out_dir: Path, with_plot: bool = True) -> list[Path]:
    """report.json, report.md and (with_plot) fast_by_turn.png in out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / "report.json", out_dir / "report.md"]
    paths[0].write_text(json.dumps(rep, indent=2) + "\n")
    paths[1].write_text(markdown(rep))
    if with_plot:
        paths.append(out_dir / "fast_by_turn.png")
        plot(rep, paths[-1])
    return paths
