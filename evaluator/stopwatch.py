"""Timing from the trusted side: the worker's clock, unpredictable inputs, revealed outputs.

A candidate's process may know it is being timed; nothing it reports about time is
used. One timed run is, from the worker:
    arm(set, seed)     untimed: the child redraws timing input set `set` from the
                       problem's get_inputs under a seed drawn here from the OS's
                       randomness: no earlier result is right for it, and no cheap map
                       from an earlier input leads to it (a scaled copy, as this once
                       was, let a cache fix up linear or scale-invariant results);
    go                 timed by the worker's clock from writing the command to reading the
                       reply: flush, forward, device-wide sync, checksum (evaluator.timing);
    reveal?            decided HERE, after the reply, with the OS's randomness, each run
                       independently with the same probability (a fixed number of reveals
                       would tell a child that counts them when the last one is past): the
                       child must send the outputs it just committed to. The worker checks the
                       checksum and later compares them with the reference's outputs for
                       the very same inputs. A forward that is fast and wrong when timed
                       (call counting, detecting the timing loop, returning early and
                       finishing afterwards) is caught with probability that grows with
                       every run it cheats on.
The reference is timed the same way, in the trusted reference child (a process that
never ran candidate code), on the same schedule of sets and seeds, so its inputs at
every run equal the candidate's; between its runs it also does `null` runs (the same
protocol without the forward). Their median is the cost of the protocol itself (pipes,
flush, sync, checksum) and is subtracted from both medians (the redraw is untimed):
    time = median(go) - median(null)
A candidate cannot make its own protocol cost smaller than the trusted one, so the
subtraction never flatters it. The child's CUDA events are kept only as a cross-check.
"""
from __future__ import annotations

import math
import secrets
import statistics
from dataclasses import dataclass, field

import torch

from common.config.evaluator import TimingConfig
from evaluator.timing import checksum


class ForgedTiming(Exception):
    """A revealed output does not match the checksum the child committed to."""


@dataclass(frozen=True)
class Schedule:
    """Input set and input seed of every run; the first `warmup` are untimed."""

    sets: tuple[int, ...]
    seeds: tuple[int, ...]
    warmup: int
    profiled: frozenset[int] = frozenset()  # timed-run positions whose time is not used

    def extend(self, runs: int, set_ids: list[int], rng: secrets.SystemRandom) -> Schedule:
        n = len(self.sets)
        sets = self.sets + tuple(set_ids[(n + i) % len(set_ids)] for i in range(runs))
        seeds = self.seeds + tuple(rng.getrandbits(63) for _ in range(runs))
        return Schedule(sets, seeds, self.warmup, self.profiled)


@dataclass
class Series:
    """What the worker measured for one model."""

    times_s: list[float] = field(default_factory=list)          # worker clock per timed go
    events_s: list[float] = field(default_factory=list)         # the child's claim (GPU)
    null_s: list[float] = field(default_factory=list)           # protocol cost (reference)
    revealed: dict[int, list[torch.Tensor]] = field(default_factory=dict)  # run -> outputs
    revealed_tf32: dict[int, list[torch.Tensor]] = field(default_factory=dict)  # reference, GPU
    coverage: list[dict] = field(default_factory=list)         # the profiled runs' (candidate)
    own_launches: dict[int, int] = field(default_factory=dict)  # run -> launches of own kernels

    @property
    def median_s(self) -> float:
        return statistics.median(self.times_s)

    @property
    def null_median_s(self) -> float:
        return statistics.median(self.null_s) if self.null_s else 0.0


def _go(child, schedule: Schedule, i: int, flush_bytes: int, deadline_s: float,
        null: bool = False, profile: bool = False) -> tuple[dict, float]:
    if not null:
        armed, _ = child.request({"op": "arm", "id": schedule.sets[i], "seed": schedule.seeds[i]},
                                 deadline_s)
        if armed.get("op") != "armed":
            raise _ChildError(armed)
    reply, _, seconds = child.timed_request({"op": "go", "null": null, "flush_bytes": flush_bytes,
                                             **({"profile": True} if profile else {})}, deadline_s)
    if reply.get("op") != "done":
        raise _ChildError(reply)
    return reply, seconds


class _ChildError(Exception):
    def __init__(self, reply: dict):
        super().__init__(str(reply.get("message", "")))
        self.reply = reply


def _reveal(child, committed: list, deadline_s: float) -> list[torch.Tensor]:
    reply, tensors = child.request({"op": "reveal"}, deadline_s)
    if reply.get("op") != "result":
        raise _ChildError(reply)
    if checksum(tensors) != list(committed):
        raise ForgedTiming("the outputs revealed after a timed run are not the ones the child "
                           "committed to when the run ended")
    return tensors


def run_count(cfg: TimingConfig, device: str, warmup_times: list[float]) -> int:
    if device != "cuda":
        return cfg.cpu_runs
    estimate = max(statistics.median(warmup_times), 1e-6)
    return int(min(cfg.max_runs, max(cfg.min_runs, cfg.rep_ms / 1e3 / estimate)))


def reveal_probability(cfg: TimingConfig, device: str, runs: int) -> float:
    """Chance that a timed run is revealed, the same for every run. Under the interpreter
    runs are few and cheap to check: every one. On the GPU the expected number of
    reveals is reveal_fraction of the runs, within [min_reveals, max_reveals]."""
    if device != "cuda" or runs <= 0:
        return 1.0
    expected = min(runs, cfg.max_reveals, max(cfg.min_reveals, math.ceil(cfg.reveal_fraction * runs)))
    return expected / runs


def time_candidate(child, set_ids: list[int], cfg: TimingConfig, device: str,
                   flush_bytes: int, timeout_s, profiled_runs: int = 0) -> tuple[Schedule, Series, frozenset[int]]:
    """Warm-up, then timed runs with reveals chosen after each commitment. `profiled_runs`
    more runs, at positions drawn here, run under the profiler: to the forward they are
    timed runs like the others (so coverage describes the forward that is timed, and
    counting calls does not find them); their times are not used."""
    rng = secrets.SystemRandom()
    warmup = max(cfg.warmup_runs if device == "cuda" else cfg.cpu_warmup_runs, 1)
    schedule = Schedule((), (), warmup).extend(warmup, set_ids, rng)
    warm = [_go(child, schedule, i, flush_bytes, timeout_s())[1] for i in range(warmup)]
    runs = run_count(cfg, device, warm)
    total = runs + profiled_runs
    schedule = Schedule(schedule.sets, schedule.seeds, warmup,
                        frozenset(rng.sample(range(total), profiled_runs))).extend(total, set_ids, rng)
    p = reveal_probability(cfg, device, runs)
    series, chosen = Series(), set()
    for r in range(total):
        profiled = r in schedule.profiled
        reply, seconds = _go(child, schedule, warmup + r, flush_bytes, timeout_s(), profile=profiled)
        series.own_launches[r] = int(reply.get("own_launches", 0) or 0)
        if profiled:
            if isinstance(reply.get("coverage"), dict):
                series.coverage.append(reply["coverage"])
        else:
            series.times_s.append(seconds)
            if reply.get("events_s") is not None:
                series.events_s.append(float(reply["events_s"]))
        if p >= 1.0 or rng.random() < p:
            chosen.add(r)
            series.revealed[r] = _reveal(child, reply["checksum"], timeout_s())
    return schedule, series, frozenset(chosen)


def time_reference(child, schedule: Schedule, reveal: frozenset[int], device: str,
                   flush_bytes: int, timeout_s) -> Series:
    """The same schedule on the reference, each run followed by a null run."""
    series = Series()
    for i in range(schedule.warmup):
        _go(child, schedule, i, flush_bytes, timeout_s())
    _go(child, schedule, 0, flush_bytes, timeout_s(), null=True)  # warm the null path too
    for r in range(len(schedule.sets) - schedule.warmup):
        reply, seconds = _go(child, schedule, schedule.warmup + r, flush_bytes, timeout_s())
        if r not in schedule.profiled:  # the positions the candidate ran profiled: not compared
            series.times_s.append(seconds)
            if reply.get("events_s") is not None:
                series.events_s.append(float(reply["events_s"]))
        if r in reveal:
            series.revealed[r] = _reveal(child, reply["checksum"], timeout_s())
            if device == "cuda":
                alt, tensors = child.request({"op": "alt", "id": schedule.sets[schedule.warmup + r]},
                                             timeout_s())
                if alt.get("op") != "result":
                    raise _ChildError(alt)
                series.revealed_tf32[r] = tensors
        series.null_s.append(_go(child, schedule, 0, flush_bytes, timeout_s(), null=True)[1])
    return series


def profiled_coverage(runs: list[dict]) -> dict | None:
    """Coverage from the profiled runs: 1 - median(time in other kernels) / min(total time).

    Padding (own work that does nothing for the result) only ever adds time and never
    shrinks the other kernels' time. Over runs drawn at random among the timed ones, the
    least total is a run the forward did not pad, unless it pads every run, and then
    every timed run is slower by as much: coverage is not for free. (A median total would
    be bought by padding just over half the profiled runs, and a handful of profiled runs
    is easily more than half padded by chance.) The profiled run with the least total is
    shown; `per_run` has each run's own share."""
    def total(c: dict) -> float | None:  # GPU: profiler kernel time; CPU: the work estimate
        value = c.get("gpu_time_s", c.get("estimated_time_s"))
        return float(value) if isinstance(value, (int, float)) else None

    usable = [c for c in runs if isinstance(c.get("coverage"), (int, float)) and total(c) is not None]
    if not usable:
        return None
    others = [total(c) - float(c.get("candidate_time_s", 0.0)) for c in usable]
    least = min(usable, key=total)
    shown = dict(least)
    whole = total(least)
    shown["coverage"] = min(max(1.0 - statistics.median(others) / whole, 0.0), 1.0) if whole > 0 else 0.0
    shown["per_run"] = [round(float(c["coverage"]), 4) for c in usable]
    return shown


def net_seconds(series: Series, null_s: float, floor_s: float = 1e-6) -> float:
    """Median worker-clock time less the trusted protocol cost (never below floor_s)."""
    return max(series.median_s - null_s, floor_s)
