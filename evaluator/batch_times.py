"""A timing's time per forward from what the worker's clock measured (evaluator.stopwatch's
Series): each timed batch less its null batch, plus what its untimed steps around go took
beyond the trusted reference's for the same batch, over the batch size; the median per kind
of input, the slowest kind's; and how many more batches a GPU timing takes (`more_batches`).
"""
from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from common.config.evaluator import TimingConfig
    from evaluator.stopwatch import Series


def outside_go_seconds(cand: Series, ref: Series, factor: float, slack_s: float,
                       groups: list[list[int]] | None = None) -> list[float]:
    """Per timed batch of the candidate, what its `arm` and `commit` took on the worker's clock
    beyond the reference's for the same batches (the same sets, seeds and output sizes), past
    `factor` of it and `slack_s`: work a forward moved out of go. A process running arbitrary
    Python can answer go at once and finish its outputs in a thread before its commit's sums
    are taken (they and every reveal then match), or compute them on the inputs drawn by arm
    before go arrives; either way that time is the forward's. Medians per kind of input, as
    the time is (`group_seconds`), each charged to every batch of its kind: a collection or a
    scheduler's hiccup in one honest commit charges nothing (an honest linear + relu's was
    charged 2.8 ms of 45 ms per forward, batch by batch, on 2 shared cores), and a forward
    that moves its work out of go in fewer than half its batches leaves its go median honest.
    What lands after the commit is caught by the sums (a reveal differs)."""
    n = len(cand.times_s)
    if len(cand.around_s) != n or len(ref.around_s) != n or n == 0:
        return [0.0] * n
    kind = {s: g for g, ids in enumerate(groups or []) for s in ids}
    key = [kind.get(s, 0) for s in cand.batch_sets] if len(cand.batch_sets) == n else [0] * n
    charge = {}
    for g in set(key):
        mine = [b for b in range(n) if key[b] == g]
        theirs = statistics.median(ref.around_s[b] for b in mine)
        charge[g] = max(0.0, statistics.median(cand.around_s[b] for b in mine) - factor * theirs - slack_s)
    return [charge[g] for g in key]


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


def more_batches(series: Series, cfg: TimingConfig, device: str, groups: list[list[int]]) -> int:
    """Timed batches to add (GPU): min_batches more while any group's median net time per
    batch is known less well than `batch_precision` of it (the ~95% interval of a median from
    its order statistics: ranks n/2 -+ 0.98 sqrt(n)), up to max_batches in all; else 0. The
    candidate's own nulls, uncapped: this decides only how long to measure."""
    n = len(series.times_s)
    if device != "cuda" or n >= cfg.max_batches:
        return 0
    diffs = [t - z for t, z in zip(series.times_s, series.null_s)]
    kind = {s: g for g, ids in enumerate(groups) for s in ids}
    for g in range(len(groups)):
        d = sorted(x for x, s in zip(diffs, series.batch_sets) if kind.get(s, 0) == g)
        if len(d) < 3:
            continue
        j = max(0, math.floor(len(d) / 2 - 0.98 * math.sqrt(len(d))))
        width = (d[len(d) - 1 - j] - d[j]) / 2
        if width > 0 and width > cfg.batch_precision * max(statistics.median(d), 0.0):
            return min(cfg.min_batches, cfg.max_batches - n)
    return 0
