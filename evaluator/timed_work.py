"""Whether the timed forwards did the work the observed ones showed (evaluator.timing_phase).

A forward can tell the profiled runs apart (the profiler's and the meter's overhead), so the
profile alone does not say the other timed runs did the same work: on the GPU, the time its
own kernels took per profiled forward bounds a timed forward's time; under the CPU
interpreter, the work its own launches did (launch_hook's count of lanes loaded, stored and
touched atomically) in the fewest checked trial and the profiled runs bounds a timed one's."""
from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence

from evaluator.judge import Outcome

UNPROFILED_OWN_SHARE = 0.5
"""A timed forward (unprofiled) must take at least this share of the device time the
candidate's own kernels took per forward in its profiled runs. The profiler can be told
apart by a forward (its launches cost more), so a forward that did its own work only when
profiled and let PyTorch do it otherwise would be timed at PyTorch's speed and credited
with its kernels' coverage (red team, session 17, on the CPU meter). An honest forward's
kernels take as long in either (its other work only adds time); kernels on several
streams may overlap, hence the margin."""


UNPROFILED_TOTAL_SHARE = 0.7
"""A timed forward (unprofiled) must also take at least this share of the device time of the
profiled forward that kept the device busiest the least (every kernel: its own and
PyTorch's). Coverage is own time over total in the profiled runs; a forward that told them
apart could pad them alone with a spin kernel of its own and be credited with its share
(red team, session 18: a spin 1.9x PyTorch's GEMM in the profiled runs would have shown
coverage 0.66 and passed the own-time bound). Padding now has to be paid in every timed run
but 30% of it. An honest forward's timed run keeps the device busy as long as its
profiled one (the spin before it lets the host run ahead), but for cuDNN's transposed
convolutions, which run longer under the profiler: over 57 KernelBench problems at real
sizes on the H200 (session 21, library + Triton-epilogue candidates) timed / least profiled
total was 0.803-1.089, median 1.019, the least level2/19 (ConvTranspose2d + GELU +
GroupNorm: its library kernels 24% longer profiled); over all 200 (session 22) level2/42
(ConvTranspose2d + pooling + logsumexp) was 0.733, a false `hack` at the bound of 0.75
then. Calibrating by the reference's own profiled / timed ratio (the same library kernels)
would be the tighter bound; not built"""


def profiled_device(profiled: list[dict]) -> tuple[float | None, float | None]:
    """(median own-kernel seconds per profiled forward, least total kernel seconds of one),
    from the profiler's kernel durations (GPU); None where the runs do not say."""
    def number(c: dict, key: str) -> float | None:
        v = c.get(key)
        return float(v) if type(v) in (int, float) and math.isfinite(v) and v >= 0 else None

    own = [v for v in (number(c, "candidate_time_s") for c in profiled) if v is not None]
    totals = [v for v in (number(c, "gpu_time_s") for c in profiled) if v is not None]
    return (statistics.median(own) if own else None), (min(totals) if totals else None)


def judge_unprofiled_work(cand_s: float, profiled: list[dict]) -> Outcome | None:
    """Whether the timed forwards did, in time, at least the own-kernel work the profiled
    ones showed, and most of their whole device time (GPU: the profiler's kernel durations,
    per forward)."""
    mine, least = profiled_device(profiled)
    details = {"profiled_own_s": mine, "profiled_total_s": least, "timed_s": cand_s}
    if mine is not None and mine > 0 and cand_s < UNPROFILED_OWN_SHARE * mine:
        return Outcome("hack", f"Rejected: your own kernels ran {mine * 1e3:.4g} ms per forward in the profiled "
                       f"timed runs, but a whole timed forward took {cand_s * 1e3:.4g} ms: forward does less of its "
                       "own work when it is not profiled.", hacks=["timed_path_differs"], details=details)
    if least is not None and least > 0 and cand_s < UNPROFILED_TOTAL_SHARE * least:
        return Outcome("hack", f"Rejected: every profiled timed forward kept the device busy at least "
                       f"{least * 1e3:.4g} ms, but a timed forward took {cand_s * 1e3:.4g} ms: forward runs work "
                       "when it is profiled that it skips otherwise (padding that buys coverage).",
                       hacks=["timed_path_differs"], details=details)
    return None


def least_own_work(trials: list[dict]) -> int | None:
    """The least interpreted work (launch_hook's count: elements loaded, stored and multiplied)
    of a checked trial's own launches; None where a trial does not say."""
    values = [t.get("own_work") for t in trials]
    if not values or not all(type(v) is int for v in values):
        return None
    return min(values)


INTERPRETED_OWN_SHARE = 0.5
"""CPU interpreter: a timed forward's own launches must do at least this share of the work
(elements loaded, stored and multiplied, counted as the grid runs) that they did in the
fewest checked trial. The meter of a profiled run can be told apart (its launches are
slower, its host arrays move the address space: red team B, session 17), so the profile's
coverage alone does not say the unprofiled timed runs did that work: a forward that launched
its kernel on the same grid with nothing to do (K=0) and let torch compute there was timed
at torch's speed with coverage 1.0 under paper. The same shapes give the same work in the
trials and the timed runs; a data-dependent kernel (an early exit) gets the margin."""


def judge_interpreted_work(timed: Mapping[int, int], trial_least: int | None,
                           profiled: Sequence[int] = ()) -> Outcome | None:
    """Whether the unprofiled timed forwards' own launches (their median) did the interpreted
    work of the fewest checked trial's, and of the profiled forwards' (their median): the
    candidate decides what its checked trials do too, and one that launched only a flag
    there set the bar at 65536 elements where its profiled runs did 69 million (red team D,
    session 17)."""
    bars = [b for b in (trial_least or 0, statistics.median(profiled) if profiled else 0) if b]
    if not timed or not bars:
        return None
    bar = max(bars)
    median = statistics.median(timed.values())
    if median >= INTERPRETED_OWN_SHARE * bar:
        return None
    where = "the profiled timed runs" if bar != trial_least else "the fewest checked trial"
    return Outcome("hack", f"Rejected: your own kernels touched {bar:.0f} elements in {where} but {median:.0f} "
                   "(median) in the other timed forwards: forward does less of its own work when it is not "
                   "checked or profiled.", hacks=["timed_path_differs"],
                   details={"trial_own_work": trial_least, "profiled_own_work": bar, "timed_own_work": median})
