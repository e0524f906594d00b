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
INSTALL_HINT = "pip install matplotlib (a base dependency of krl: pip install -e .)"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed, so the PNG plot cannot be drawn."""


@dataclass
class TurnResult:
    status: str
    correct: bool = False
    speedup: float | None = None
    reward: float = 0.0
    evaluated: bool = True
    answer: str = ""  # the answer's text (what the model wrote; benchmarks/learning.py
    # tells the answer variants apart by it)


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
        at = {
            f"{p:g}": sum(len(e.turns) >= t and is_fast(e.turns[t - 1], p) for e in episodes) / n
            for p in THRESHOLDS
        }
        best = {
            f"{p:g}": sum(any(is_fast(x, p) for x in e.turns[:t]) for e in episodes) / n
            for p in THRESHOLDS
        }
        rows.append(
            {
                "turn": t,
                "fast_at_turn": at,
                "fast_best_so_far": best,
                "episodes_reaching_turn": sum(len(e.turns) >= t for e in episodes),
            }
        )
    return rows


def summary(episodes: Sequence[EpisodeResult], turns: int) -> dict[str, Any]:
    rows = per_turn(episodes, turns)
    statuses: dict[str, int] = {}
    for e in episodes:
        for x in e.turns:
            statuses[x.status] = statuses.get(x.status, 0) + 1
    return {
        "turns": turns,
        "episodes": len(episodes),
        "per_turn": rows,
        "best_over_turns": rows[-1]["fast_best_so_far"] if rows else {},
        "statuses": dict(sorted(statuses.items())),
    }


def report(
    meta: dict[str, Any],
    base: Sequence[EpisodeResult],
    turns: int,
    scaling: Sequence[EpisodeResult] | None = None,
    scaling_turns: int = 0,
) -> dict:
    out = {"meta": meta, "multi_turn": summary(base, turns), "episodes": [asdict(e) for e in base]}
    if scaling is not None:
        out["scaling"] = summary(scaling, scaling_turns)
        out["scaling_episodes"] = [asdict(e) for e in scaling]
    return out


def markdown(rep: dict) -> str:
    meta = rep["meta"]
    lines = [
        f"# krl benchmark: {meta['model']}",
        "",
        (
            f"Problems: {meta['problems']} ({meta['num_problems']}), samples {meta['samples']}, "
            f"device {meta['device']}. {meta.get('note', '')}"
        ),
        "",
    ]
    lines += _table("Multi-turn", rep["multi_turn"])
    if "scaling" in rep:
        lines += _table(f"Sequential test-time scaling (window {meta['window']})", rep["scaling"])
    plotted = rep.get("plot", {})
    if "file" in plotted:
        lines += [f"![Fast@p by turn]({plotted['file']})", ""]
    elif "skipped" in plotted:
        lines += [f"Plot skipped: {plotted['skipped']}", ""]
    return "\n".join(lines) + "\n"


def _table(title: str, s: dict) -> list[str]:
    at = " | ".join(f"Fast@{p:g}" for p in THRESHOLDS)
    best = " | ".join(f"best Fast@{p:g}" for p in THRESHOLDS)
    lines = [
        f"## {title}",
        "",
        f"Verdicts: {s['statuses']}",
        "",
        "Fast@p at each turn, then best over turns 1..t.",
        "",
        f"| turn | episodes | {at} | {best} |",
        "|" + "---|" * (2 + 2 * len(THRESHOLDS)),
    ]
    for row in s["per_turn"]:
        at = " | ".join(f"{row['fast_at_turn'][f'{p:g}']:.1%}" for p in THRESHOLDS)
        best = " | ".join(f"{row['fast_best_so_far'][f'{p:g}']:.1%}" for p in THRESHOLDS)
        lines.append(f"| {row['turn']} | {row['episodes_reaching_turn']} | {at} | {best} |")
    best = ", ".join(f"Fast@{p:g} {s['best_over_turns'].get(f'{p:g}', 0):.1%}" for p in THRESHOLDS)
    return lines + ["", f"Best over all {s['turns']} turns: {best}", ""]


def figure(rep: dict) -> Any:
    """The Fast@p-by-turn figure: a column per run (multi-turn, then scaling if any).

    Top row: Fast@p at turn t; bottom row: Fast@p best over turns 1..t (in the
    scaling column, the test-time scaling curve). One line per threshold p; each
    line's gid ("at:<p>" or "best:<p>") names its series. Drawn on an Agg canvas:
    no display, no pyplot global state.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise PlotUnavailable(f"matplotlib is not installed: {INSTALL_HINT}") from exc
    runs = [("multi-turn", rep["multi_turn"])]
    if "scaling" in rep:
        runs.append((f"test-time scaling (window {rep['meta']['window']})", rep["scaling"]))
    fig = Figure(figsize=(6 * len(runs), 8), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, len(runs), squeeze=False, sharey=True)
    rows = (
        ("at", "fast_at_turn", "at turn t"),
        ("best", "fast_best_so_far", "best over turns 1..t"),
    )
    for col, (title, s) in enumerate(runs):
        turns = [r["turn"] for r in s["per_turn"]]
        for ax, (kind, field_, what) in zip(axes[:, col], rows):
            for p in THRESHOLDS:
                ax.plot(
                    turns,
                    [r[field_][f"{p:g}"] for r in s["per_turn"]],
                    marker="o",
                    label=f"Fast@{p:g}",
                    gid=f"{kind}:{p:g}",
                )
            ax.set(
                title=f"{title}: Fast@p {what}",
                xlabel="turn",
                ylabel="share of episodes",
                ylim=(-0.02, 1.02),
                xticks=turns,
            )
            ax.grid(alpha=0.3)
            ax.legend(loc="upper left", fontsize="small")
    return fig


def plot(rep: dict, path: Path) -> None:
    """Write figure(rep) to path as a PNG; raises PlotUnavailable without matplotlib."""
    figure(rep).savefig(path, dpi=120)


def write(rep: dict, out_dir: Path, with_plot: bool = True) -> list[Path]:
    """report.json, report.md and (with_plot) fast_by_turn.png in out_dir.

    rep["plot"] records the outcome: {"file": name} or, when matplotlib is missing,
    {"skipped": why and how to install}; the JSON and Markdown are written either way.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / "report.json", out_dir / "report.md"]
    if with_plot:
        png = out_dir / "fast_by_turn.png"
        try:
            plot(rep, png)
            rep["plot"] = {"file": png.name}
            paths.append(png)
        except PlotUnavailable as exc:  # deliberately dropped: the numbers matter more
            rep["plot"] = {"skipped": str(exc)}
    paths[0].write_text(json.dumps(rep, indent=2) + "\n")
    paths[1].write_text(markdown(rep))
    return paths
