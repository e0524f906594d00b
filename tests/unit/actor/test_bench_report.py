"""`krl benchmark` metrics: Fast@p per turn and best over turns, and the report files."""

from __future__ import annotations

import json
import sys

import pytest

from actor.bench_report import (
    THRESHOLDS,
    EpisodeResult,
    PlotUnavailable,
    TurnResult,
    figure,
    is_fast,
    markdown,
    per_turn,
    report,
    summary,
    write,
)


def _ep(*turns: tuple[bool, float | None], name: str = "p") -> EpisodeResult:
    return EpisodeResult(
        name, 0, "max_turns", [TurnResult("ok" if c else "incorrect", c, s) for c, s in turns]
    )


def test_fast_p_needs_correct_and_strictly_more_than_p_times_faster():
    assert is_fast(TurnResult("ok", True, 1.2), 1.0) and not is_fast(
        TurnResult("ok", True, 1.2), 1.2
    )
    assert not is_fast(TurnResult("incorrect", False, 5.0), 0)
    untimed = TurnResult("ok", True, None)
    assert is_fast(untimed, 0) and not is_fast(untimed, 1.0)  # Fast@0 is correctness


def test_per_turn_and_best_over_turns():
    episodes = [
        _ep((False, None), (True, 1.3), (True, 0.9)),  # fast@1.2 only at turn 2
        _ep((True, 2.5), (False, None), (False, None)),  # fast@2 at turn 1, then broken
        _ep((False, None)),  # ended after one turn
        _ep((False, None), (False, None), (True, 1.1)),
    ]
    rows = per_turn(episodes, 3)
    assert [r["fast_at_turn"]["0"] for r in rows] == [0.25, 0.25, 0.5]
    assert [r["fast_at_turn"]["1.2"] for r in rows] == [0.25, 0.25, 0.0]
    assert [r["fast_best_so_far"]["0"] for r in rows] == [0.25, 0.5, 0.75]
    assert [r["fast_best_so_far"]["1.2"] for r in rows] == [0.25, 0.5, 0.5]
    assert [r["fast_best_so_far"]["2"] for r in rows] == [0.25, 0.25, 0.25]
    assert [r["episodes_reaching_turn"] for r in rows] == [4, 3, 3]
    s = summary(episodes, 3)
    assert s["best_over_turns"]["1"] == 0.75 and s["statuses"] == {"incorrect": 6, "ok": 4}


def _rep() -> dict:
    base = [_ep((True, 1.5), (True, 2.1), name="a"), _ep((False, None), (True, 1.0), name="b")]
    scaling = [
        _ep((False, None), (False, None), (True, 3.0), name="a"),
        _ep((False, None), (False, None), (False, None), name="b"),
    ]
    meta = {
        "model": "m",
        "problems": "builtin",
        "num_problems": 2,
        "samples": 1,
        "turns": 2,
        "scaling_turns": 3,
        "window": 2,
        "device": "cpu",
    }
    return report(meta, base, 2, scaling, 3)


def test_report_files(tmp_path):
    rep = _rep()
    text = markdown(rep)
    assert "| 2 | 2 | 100.0% | 50.0% | 50.0% | 50.0% | 50.0% |" in text  # turn 2, at turn
    assert "Best over all 3 turns: Fast@0 50.0%" in text
    paths = write(rep, tmp_path)
    assert [p.name for p in paths] == ["report.json", "report.md", "fast_by_turn.png"]
    png = paths[-1].read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    from matplotlib.image import imread

    assert imread(paths[-1]).shape[:2] == (960, 1440)  # two runs, 12 x 8 in at 120 dpi
    loaded = json.loads((tmp_path / "report.json").read_text())
    assert loaded["scaling"]["best_over_turns"]["2"] == 0.5
    assert loaded["plot"] == {"file": "fast_by_turn.png"}
    md = (tmp_path / "report.md").read_text()
    assert md == markdown(rep) and "![Fast@p by turn](fast_by_turn.png)" in md


def test_plot_lines_are_fast_p_by_turn_and_best_over_turns():
    episodes = [
        _ep((False, None), (True, 1.3), (True, 0.9)),
        _ep((True, 2.5), (False, None), (False, None)),
        _ep((False, None)),
        _ep((False, None), (False, None), (True, 1.1)),
    ]
    meta = {
        "model": "m",
        "problems": "p",
        "num_problems": 4,
        "samples": 1,
        "turns": 3,
        "scaling_turns": 0,
        "window": 4,
        "device": "cpu",
    }
    fig = figure(report(meta, episodes, 3))
    at_ax, best_ax = fig.axes  # no scaling run: one column, at turn t above best over 1..t
    lines = {line.get_gid(): line for ax in fig.axes for line in ax.get_lines()}
    assert set(lines) == {f"{kind}:{p:g}" for kind in ("at", "best") for p in THRESHOLDS}

    def fast(turn: TurnResult, p: float) -> bool:  # the README's definition, from the results
        return turn.correct and (p == 0 or (turn.speedup or 0) > p)

    for p in THRESHOLDS:
        at = [
            sum(len(e.turns) >= t and fast(e.turns[t - 1], p) for e in episodes) / 4
            for t in (1, 2, 3)
        ]
        best = [sum(any(fast(x, p) for x in e.turns[:t]) for e in episodes) / 4 for t in (1, 2, 3)]
        for kind, expected in (("at", at), ("best", best)):
            line = lines[f"{kind}:{p:g}"]
            assert list(line.get_xdata()) == [1, 2, 3]
            assert list(line.get_ydata()) == expected, (kind, p)
            assert line.axes is (best_ax if kind == "best" else at_ax)
    assert list(lines["at:1.2"].get_ydata()) == [0.25, 0.25, 0.0]
    assert list(lines["best:0"].get_ydata()) == [0.25, 0.5, 0.75]
    assert [t.get_text() for t in at_ax.get_legend().get_texts()] == [
        f"Fast@{p:g}" for p in THRESHOLDS
    ]


def test_scaling_run_gets_its_own_panel():
    rep = _rep()
    multi_at, scaling_at, multi_best, scaling_best = figure(rep).axes  # row-major
    assert "test-time scaling (window 2)" in scaling_best.get_title()
    curve = {line.get_gid(): list(line.get_ydata()) for line in scaling_best.get_lines()}
    assert curve["best:2"] == [0.0, 0.0, 0.5] and curve["best:0"] == [0.0, 0.0, 0.5]
    multi = {line.get_gid(): list(line.get_ydata()) for line in multi_best.get_lines()}
    assert multi["best:0"] == [0.5, 1.0] and multi["best:2"] == [0.0, 0.5]
    assert all(list(line.get_xdata()) == [1, 2] for line in multi_at.get_lines())
    assert all(list(line.get_xdata()) == [1, 2, 3] for line in scaling_at.get_lines())


def test_without_matplotlib_json_and_markdown_are_still_written(tmp_path, monkeypatch):
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # `import` raises ImportError
    rep = _rep()
    with pytest.raises(PlotUnavailable, match="pip install matplotlib"):
        figure(rep)
    paths = write(rep, tmp_path)
    assert [p.name for p in paths] == ["report.json", "report.md"]
    assert not (tmp_path / "fast_by_turn.png").exists()
    skipped = json.loads(paths[0].read_text())["plot"]["skipped"]
    assert "matplotlib is not installed" in skipped and "pip install" in skipped
    assert f"Plot skipped: {skipped}" in paths[1].read_text()
    assert json.loads(paths[0].read_text())["multi_turn"]["best_over_turns"]["1.2"] == 0.5
