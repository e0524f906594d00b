"""`krl benchmark` metrics: Fast@p per turn and best over turns, and the report files."""
from __future__ import annotations

import json

import pytest

from actor.bench_report import (
    EpisodeResult,
    PlotUnavailable,
    TurnResult,
    is_fast,
    markdown,
    per_turn,
    report,
    summary,
    write,
)


def _ep(*turns: tuple[bool, float | None], name: str = "p") -> EpisodeResult:
    return EpisodeResult(name, 0, "max_turns",
                         [TurnResult("ok" if c else "incorrect", c, s) for c, s in turns])


def test_fast_p_needs_correct_and_strictly_more_than_p_times_faster():
    assert is_fast(TurnResult("ok", True, 1.2), 1.0) and not is_fast(TurnResult("ok", True, 1.2), 1.2)
    assert not is_fast(TurnResult("incorrect", False, 5.0), 0)
    untimed = TurnResult("ok", True, None)
    assert is_fast(untimed, 0) and not is_fast(untimed, 1.0)  # Fast@0 is correctness


def test_per_turn_and_best_over_turns():
    episodes = [
        _ep((False, None), (True, 1.3), (True, 0.9)),   # fast@1.2 only at turn 2
        _ep((True, 2.5), (False, None), (False, None)),  # fast@2 at turn 1, then broken
        _ep((False, None)),                              # ended after one turn
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


def test_report_files(tmp_path):
    base = [_ep((True, 1.5), (True, 2.1), name="a"), _ep((False, None), (True, 1.0), name="b")]
    scaling = [_ep((False, None), (False, None), (True, 3.0), name="a"),
               _ep((False, None), (False, None), (False, None), name="b")]
    meta = {"model": "m", "problems": "builtin", "num_problems": 2, "samples": 1, "turns": 2,
            "scaling_turns": 3, "window": 2, "device": "cpu"}
    rep = report(meta, base, 2, scaling, 3)
    text = markdown(rep)
    assert "| 2 | 2 | 100.0% | 50.0% | 50.0% | 50.0% | 50.0% |" in text  # turn 2, at turn
    assert "Best over all 3 turns: Fast@0 50.0%" in text
    try:
        import matplotlib  # noqa: F401
        has_plot = True
    except ImportError:
        has_plot = False
    if has_plot:
        paths = write(rep, tmp_path)
        assert paths[-1].stat().st_size > 1000
    else:
        with pytest.raises(PlotUnavailable, match="pip install matplotlib"):
            write(rep, tmp_path)
    loaded = json.loads((tmp_path / "report.json").read_text())
    assert loaded["scaling"]["best_over_turns"]["2"] == 0.5
    assert (tmp_path / "report.md").read_text() == text
