"""A timing's time per forward from what the worker's clock measured (evaluator.stopwatch's
Series): each timed batch less its null batch, plus what its untimed steps around go took
beyond the trusted reference's for the same batch, over the batch size; the median per kind
of input, the slowest kind's.
"""
from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evaluator.stopwatch import Series


def outside_go_seconds(cand: Series, ref: Series, factor: float, slack_s: float) -> list[float]:
    """Per timed batch of the candidate, the worker-clock time its `arm` and `commit` took
    beyond the reference's for the same batch (the same sets, seeds and output sizes; the
    more of that batch's and the reference's median, so a slow draw of the reference's
    never lowers the bar), past `factor` of it and `slack_s`: work a forward moved out of
    go. A process running arbitrary Python can answer go at once and finish its outputs in
    a thread before its commit's sums are taken (they and every reveal then match), or
    compute them on the inputs drawn by arm before go arrives; either way that time is the
    forward's. What lands after the commit is caught by the sums (a reveal differs)."""
    n = len(cand.times_s)
    if len(cand.around_s) != n or len(ref.around_s) != n or n == 0:
        return [0.0] * n
    typical = statistics.median(ref.around_s)
    return [max(0.0, c - factor * max(r, typical) - slack_s) for c, r in zip(cand.around_s, ref.around_s)]


def net_seconds(series: Series, null_cap_s: float | None = None, floor_s: float = 1e-6,
                groups: list[list[int]] | None = None, outside_s: list[float] | None = None) -> float:
    """Time per forward: the median over timed batches of (batch - its null batch), each
    null at most `null_cap_s` (the trusted median null, for a candidate), over the batch
    size (never below floor_s). With `groups` (input sets of different kinds: spiked and
    the problem's own), the largest of the groups' medians: a forward that is cheap on one
    kind of input only (it skips what a spike makes negligible, or samples where nothing
    is spiked) is timed on the other. `outside_s` (per timed batch: `outside_go_seconds`)
    is added to each batch's time."""
    per = group_seconds(series, null_cap_s, groups, outside_s)
    return max(max(x for x in per if x is not None), floor_s)


def group_seconds(series: Series, null_cap_s: float | None = None,
                  groups: list[list[int]] | None = None,
                  outside_s: list[float] | None = None) -> list[float | None]:
    """Per group of input sets (one group: all), the median net time per forward of its
    timed batches (None where it has none), each batch charged its `outside_s`."""
    nulls = series.null_s if null_cap_s is None else [min(n, null_cap_s) for n in series.null_s]
    extra = outside_s if outside_s is not None and len(outside_s) == len(series.times_s) \
        else [0.0] * len(series.times_s)
    diffs = [t - n + x for t, n, x in zip(series.times_s, nulls, extra)] or series.times_s
    if not groups or len(groups) < 2 or len(series.batch_sets) != len(diffs):
        return [statistics.median(diffs) / series.batch]
    kind = {s: g for g, ids in enumerate(groups) for s in ids}
    per = [[d for d, s in zip(diffs, series.batch_sets) if kind.get(s) == g] for g in range(len(groups))]
    return [statistics.median(p) / series.batch if p else None for p in per]
