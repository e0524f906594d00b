"""Construction's launch ints: which of the ints host Python hands a kernel's launches are data.

An argument's ints over one kernel's launches cost nothing where they are one value or step
as a loop's counter does, and each distinct value or each run of their launch order
otherwise (`IntRuns`, `sequence_cost`; red teams rt74 and rt78). Construction counts the larger
of this and `launch_sizes.DataInts` (ints no handed tensor's size explains): an int a tensor
explains (0 an offset, 1 a stride) still carries a table in the order it comes back in.
"""
from __future__ import annotations

from evaluator.host_tables import RUN_NUMBERS, run_lengths
from evaluator.launch_args import launch_ints


class IntRuns:
    """Each argument's ints over construction's launches of one kernel, and how many are data
    (`counts`, key -> values): none where they are one value or step as a loop's counter does
    (an arithmetic run of distinct values, in launch order), else each distinct one. Red team
    rt74: a kernel launched once per entry with (index, code) stored host Python's fixed-point
    sigmoid table, the indices stepping, the codes the table. Not applied in forward: an honest
    per-layer kernel passes a ladder of sizes (a VGG-16's per-layer conv: 80 such ints), and a
    forward may pass judge.LAUNCH_INTS distinct ints (docs/threat_model.md, rt74).
    The distinct values say nothing of WHEN each comes back, and that order is a table too (red
    team rt78: a code handed as 16 arguments of 0 or 1, each two values in a run, stored 128
    entries for nothing): an argument also counts the runs its launch-order sequence needs
    (`sequence_cost`), a loop's counter, a constant and a nested loop's counters one run."""

    def __init__(self, counts: dict | None = None) -> None:
        self.runs: dict[tuple, list] = {}  # (kernel, place) -> [distinct values, last, step, stepping]
        self.seqs: dict[tuple, list] = {}  # (kernel, place) -> its ints in launch order
        self.counts: dict = {} if counts is None else counts  # (the provenance watch's launch_texts)

    def add(self, kernel: object, args: tuple, kwargs: dict) -> None:
        fn = id(getattr(kernel, "fn", kernel))
        for place, v in launch_ints(args, kwargs).items():
            seq = self.seqs.setdefault((fn, place), [])
            if len(seq) < MAX_SEQUENCE:
                seq.append(v)
            run = self.runs.setdefault((fn, place), [set(), None, None, True])
            if v in run[0]:
                continue
            if run[1] is not None:
                step = v - run[1]
                run[3] = run[3] and run[2] in (None, step)
                run[2] = step
            run[0].add(v)
            run[1] = v
            if not run[3]:
                self.counts[("ints", fn, place)] = len(run[0])

    def data(self) -> int:
        """The ints that are data (where `counts` is its own): per argument the larger of its
        distinct values (where they do not step) and its sequence's runs (where more than one)."""
        for (fn, place), seq in self.seqs.items():
            cost = sequence_cost(seq)
            key = ("ints", fn, place)
            if cost > 1 and cost > self.counts.get(key, 0):
                self.counts[key] = cost
        return sum(self.counts.values())


MAX_SEQUENCE = 1 << 14  # launch-order ints kept per argument (a bound on the watch's own work)
SEQUENCE_PERIODS = 64  # short periods tried, besides a nested loop's (`_periods`)


def _runs(seq: list, numbers: bool = False) -> int:
    """Greedy arithmetic runs (equal steps, a repeat being step 0) covering `seq`; with
    `numbers`, the start, step and length of each (RUN_NUMBERS, fewer for a shorter run)."""
    lengths = run_lengths(seq, _int_step)
    return sum(min(n, RUN_NUMBERS) for n in lengths) if numbers else len(lengths)


def _int_step(a: int, b: int) -> int:
    return b - a


def _periods(seq: list) -> set:
    """Periods a loop nest gives a counter: short ones, the first change (an outer counter's
    block) and the first return to the first value after a change (an inner counter's)."""
    out = set(range(1, min(SEQUENCE_PERIODS, len(seq)) + 1))
    change = next((i for i, v in enumerate(seq) if v != seq[0]), None)
    if change is not None:
        out.add(change)
        back = next((i for i in range(change, len(seq)) if seq[i] == seq[0]), None)
        if back is not None:
            out.add(back)
    return out


def sequence_cost(seq: list, numbers: bool = False) -> int:
    """Runs describing an argument's launch-order ints: over the cheapest period p where every
    value is the one p launches before plus one constant (a loop nest's counters), the first
    period's cost; with no such period, the runs of the whole."""
    best = _runs(seq, numbers)
    for p in _periods(seq) if seq else ():
        if p >= len(seq) or p >= best:
            continue
        shift = seq[p] - seq[0]
        if all(seq[i] - seq[i - p] == shift for i in range(p, len(seq))):
            best = min(best, sequence_cost(seq[:p], numbers))  # its own nest, one level in
    return best
