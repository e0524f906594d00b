"""Timing from the trusted side: the worker's clock, unpredictable inputs, revealed outputs.

A candidate's process may know it is being timed; nothing it reports about time is
used. One timed batch of k forwards is, from the worker:
    arm(sets, seeds)   out of go's window: the child draws k input sets from the problem's
                       get_inputs, each under a seed drawn here from the OS's randomness:
                       no earlier result is right for them, and no cheap map from an
                       earlier input leads to them (a scaled copy, as this once was, let a
                       cache fix up linear or scale-invariant results);
    go(k)              timed by the worker's clock from writing the command to reading the
                       reply: per draw, a spin (`timing.launch_slack_us`: device time the
                       host's launch path hides behind, as do_bench's behind its flush),
                       flush and forward, back to back; a device-wide sync (evaluator.timing);
    commit             out of go's window: sums over every chunk of each forward's outputs
                       (and inputs as it left them), computed on the device: kilobytes for a
                       GiB output; the go's summary (launches, the watch) follows, `summary`.
                       The harness answers go only after its forwards, but a process running
                       arbitrary Python (past the static layer) can answer at once and finish
                       its outputs in a thread before the sums are taken, or compute on the
                       draws during arm: arm and commit are timed by the worker's clock on
                       both sides, and what the candidate's took beyond the reference's for
                       the same batch (`timing.outside_go_factor` of it plus a slack) is
                       added to that batch's time (batch_times.outside_go_seconds); what the
                       child's harness sees of it (a Triton launch, a CPU torch call of the
                       candidate's code, a Python thread alive at go's start or end, while no
                       forward runs: timed_steps, `stray_calls`) is forged timing. Work left
                       past the commit differs from the sums, and a reveal shows it;
    reveal?            decided HERE, after the reply, with the OS's randomness, each forward
                       independently with the same probability (a fixed number of reveals
                       would tell a child that counts them when the last one is past): the
                       child must send the outputs it committed to: whole, or of an output
                       over `timing.reveal_sample_bytes` its first and last chunks and
                       random others, also chosen here after the commitment. The worker
                       checks them against the sums and later compares them with the
                       reference's (the same chunks) for the very same inputs. A forward
                       that is fast and wrong when timed
                       (call counting, detecting the timing loop, returning early and
                       finishing afterwards) is caught with probability that grows with
                       every forward it cheats on.
k is 1 for a forward that is slow next to a round trip, and more for a fast one, up
to `timing.batch_ms` of device time per batch (`batch_size`): a round trip costs
~0.7 ms on an H100 host (pipes, flush, sync, and then the checksums), and the two
processes' host paths differ by tens of microseconds (a process that has run the
profiler pays a few more per CUDA call), which on a 0.1 ms kernel was a 2x error. So
the timed window holds only flushes, forwards and one sync; checksums come after it.
Back to back, the host's launch overhead hides behind queued work, as in do_bench.
The reference is timed the same way, in the trusted reference child (a process that
never ran candidate code), on the same schedule of batches, sets and seeds, so its
inputs at every forward equal the candidate's. Each child does a `null` batch (the
same protocol without the forwards) right after each timed batch, and the pair is
subtracted there and then:
    time per forward = median over batches of (go - null + outside) / k
Past min_batches, more batches are timed (min_batches at a time, up to max_batches) while the
median's ~95% interval is wider than batch_precision of it (`more_batches`): for a forward of
tens of microseconds the pair's difference is a few percent of two round trips, and ten pairs
left an honest relu's speedup anywhere in 0.62-1.02 from one evaluation to the next (H200,
session 41). The reference times the same schedule; under the CPU interpreter, where its time
is a small difference of two round trips, each of its batches `timing.cpu_reference_rounds`
times (the median round kept: `_reference_batch`), and each kind of input gets at least
`timing.cpu_batches_per_kind` batches.
Pairs follow the host's load as it changes during a timing (a worker's other children
compile and check while one times; a null median taken minutes apart in another
process once ate a whole reference time). A candidate's null is its own process's
claim of protocol cost, so it is capped by the reference's median null: a candidate
cannot make its protocol look dearer than the trusted one. The reference child's CUDA
events are trusted (it never ran candidate code) and bound its time from below; the
candidate's are only a cross-check.
"""
from __future__ import annotations

import math
import secrets
import statistics
from dataclasses import dataclass, field

import torch

from common.config.evaluator import TimingConfig
from evaluator import timing as T
from evaluator.batch_times import group_seconds, more_batches, net_seconds, outside_go_seconds  # noqa: F401  (their home was here)
from evaluator.profiled_coverage import profiled_coverage  # noqa: F401  (its home was here)


class ForgedTiming(Exception):
    """A revealed output does not match the checksum the child committed to."""


@dataclass(frozen=True)
class Schedule:
    """Input set and input seed of every forward; the first `warmup` are untimed, one per
    round trip; the rest go in batches of `batch`."""

    sets: tuple[int, ...]
    seeds: tuple[int, ...]
    warmup: int
    profiled: frozenset[int] = frozenset()  # batches whose time is not used (profiled)
    batch: int = 1

    def extend(self, runs: int, set_ids: list[int], rng: secrets.SystemRandom) -> Schedule:
        n = len(self.sets)
        sets = self.sets + tuple(set_ids[(n + i) % len(set_ids)] for i in range(runs))
        seeds = self.seeds + tuple(rng.getrandbits(63) for _ in range(runs))
        return Schedule(sets, seeds, self.warmup, self.profiled, self.batch)

    def extend_batches(self, order: list[int], groups: list[list[int]], rng: secrets.SystemRandom) -> Schedule:
        """One batch of `batch` forwards per entry of `order`, each drawing from that group of
        input sets only (`balanced`): each group's batches get a median of their own
        (`net_seconds`)."""
        sets = tuple(groups[g][i % len(groups[g])] for g in order for i in range(self.batch))
        seeds = tuple(rng.getrandbits(63) for _ in sets)
        return Schedule(self.sets + sets, self.seeds + seeds, self.warmup, self.profiled, self.batch)

    def batches(self) -> list[range]:
        """Positions of each timed batch, in order (forward r of the timing is position
        warmup + r)."""
        end = len(self.sets)
        return [range(i, min(i + self.batch, end)) for i in range(self.warmup, end, self.batch)]


@dataclass
class Series:
    """What the worker measured for one model."""

    times_s: list[float] = field(default_factory=list)          # worker clock per timed batch
    batch_sets: list[int] = field(default_factory=list)         # per timed batch: its first input set
    events_s: list[float] = field(default_factory=list)         # the child's claim, per forward (GPU)
    host_s: list[float] = field(default_factory=list)           # the child's claim, per forward (GPU):
    # host time before it outside the event windows (timing.host_between)
    null_s: list[float] = field(default_factory=list)           # the null batch after each timed batch
    around_s: list[float] = field(default_factory=list)         # worker clock: each timed batch's arm + commit
    commit_s: list[float] = field(default_factory=list)         # worker clock: each timed batch's commit
    revealed: dict[int, list[torch.Tensor]] = field(default_factory=dict)  # forward -> outputs, inputs after
    revealed_outputs: dict[int, int] = field(default_factory=dict)  # forward -> how many are outputs
    revealed_shapes: dict[int, list] = field(default_factory=dict)  # forward -> each revealed tensor's shape
    revealed_nbytes: dict[int, list] = field(default_factory=dict)  # forward -> each one's committed bytes
    reveal_chunks: dict[int, list] = field(default_factory=dict)    # forward -> chunks revealed (None: all)
    inputs_revealed: set[int] = field(default_factory=set)       # reveals that moved the inputs too
    input_checksums: dict[int, list | None] = field(default_factory=dict)  # forward -> the claim
    revealed_tf32: dict[int, list] = field(default_factory=dict)  # reference: TF32 deviation per output
    revealed_tf32_rest: dict[int, list] = field(default_factory=dict)  # reference, spiked runs: over the rest
    coverage: list[dict] = field(default_factory=list)         # the profiled batches'
    provenance: list[dict] = field(default_factory=list)       # the profiled batches' watch (candidate)
    own_launches: dict[int, int] = field(default_factory=dict)  # forward -> launches of own kernels
    own_programs: dict[int, dict] = field(default_factory=dict)  # forward -> programs per own kernel
    own_variants: dict[int, list] = field(default_factory=dict)  # forward -> its kernels' constexprs
    own_work: dict[int, int] = field(default_factory=dict)  # unprofiled forward -> its own launches' interpreted work
    profiled_work: list[int] = field(default_factory=list)  # the profiled forwards' (the same count)
    batch: int = 1                                              # forwards per timed batch

    @property
    def median_s(self) -> float:
        """Median worker-clock time of one timed batch."""
        return statistics.median(self.times_s)

    @property
    def null_median_s(self) -> float:
        return statistics.median(self.null_s) if self.null_s else 0.0


def _arm(child, schedule: Schedule, positions: range | list[int], deadline_s: float) -> tuple[dict, float]:
    """The batch's draws, and the worker's clock around them (`outside_go_seconds`)."""
    armed, _, seconds = child.timed_request({"op": "arm", "ids": [schedule.sets[i] for i in positions],
                                             "seeds": [schedule.seeds[i] for i in positions]}, deadline_s)
    if armed.get("op") != "armed":
        raise _ChildError(armed)
    return armed, seconds


@dataclass(frozen=True)
class Fill:
    """What each forward of a timed (and null) batch is preceded by on the GPU: an L2 flush
    of `flush_bytes` and a spin of `spin` cycles (`timing.launch_slack_us`)."""

    flush_bytes: int = 0
    spin: int = 0

    @classmethod
    def of(cls, fill: Fill | int) -> Fill:
        return fill if isinstance(fill, Fill) else cls(int(fill))


GO_SUMMARY = ("own_launches", "own_programs", "own_variants", "own_work", "aliased", "coverage", "provenance")
"""What a child says of its last go's forwards; it sends them after the commit (`summary`),
out of the worker's clock and apart from the commit, whose time is compared."""


def _go(child, count: int, fill: Fill, deadline_s: float, null: bool = False,
        profile: bool = False, watch: bool = False, inputs_out: bool = False) -> tuple[dict, float]:
    reply, _, seconds = child.timed_request({"op": "go", "count": count, "null": null,
                                             "flush_bytes": fill.flush_bytes,
                                             **({"spin": fill.spin} if fill.spin else {}),
                                             **({"profile": True} if profile else {}),
                                             **({"watch": True} if watch and not null else {}),
                                             **({"inputs_out": True} if inputs_out and not null else {})},
                                            deadline_s)
    if reply.get("op") != "done":
        raise _ChildError(reply)
    if not null:
        committed, sums, commit_s = child.timed_request({"op": "commit"}, deadline_s)
        commitment = _commitment(committed, sums, count)
        if commitment is None:
            raise _ChildError(committed if committed.get("op") == "error" else {
                "op": "error", "kind": "internal",
                "message": f"go of {count} forwards committed {committed!r:.200}"})
        if committed.get("stray_calls"):  # the harness's count, read after the sums
            raise ForgedTiming(f"{int(committed['stray_calls'])} Triton launch(es), torch call(s) or Python "
                               "thread(s) of your code ran in a timed batch while no forward was running "
                               "(between the draws and the commitment): work moved out of the timed window")
        said, _ = child.request({"op": "summary"}, deadline_s)  # after the commitment: no output moves
        if said.get("op") != "summarised":
            raise _ChildError(said)
        summary = {k: said[k] for k in GO_SUMMARY if k in said}  # the go's, summarised untimed
        reply = {**reply, **summary, "commitment": commitment, "events_s": committed.get("events_s"),
                 "host_s": _host_claim(committed.get("host_s"), count, seconds),
                 "checksums": [T.whole(out_sums) for _, out_sums, _, _ in commitment],
                 "input_checksums": [T.whole(in_sums) for _, _, _, in_sums in commitment],
                 "commit_s": commit_s}  # the worker's clock, over any key of the child's
    return reply, seconds


def _host_claim(host_s: object, count: int, seconds: float) -> list[float] | None:
    """A commit's host time between forwards (`timing.host_between`), the child's claim: None
    unless one finite, non-negative number per forward. More in all than the worker's clock
    measured around the go is forged: the child's interval lies inside the worker's."""
    if not isinstance(host_s, list) or len(host_s) != count \
            or not all(type(h) in (int, float) and math.isfinite(h) and h >= 0 for h in host_s):
        return None
    if sum(host_s) > 1.1 * seconds + 50e-6:
        raise ForgedTiming(f"the process running your kernel reported {1e3 * sum(host_s):.3g} ms of host time "
                           f"between its timed forwards; the evaluator's clock measured {1e3 * seconds:.3g} ms "
                           "around the whole batch")
    return [float(h) for h in host_s]


def _commitment(committed: dict, sums: list[torch.Tensor], count: int) -> list[tuple] | None:
    """Per forward (output bytes, output chunk sums, input bytes, input chunk sums) from a
    `commit` reply, or None when it does not have the promised shape."""
    outs, ins = committed.get("outputs"), committed.get("inputs")
    if committed.get("op") != "committed" or not isinstance(outs, list) or not isinstance(ins, list) \
            or len(outs) != count or len(ins) != count:
        return None
    result, at = [], 0
    for o, x in zip(outs, ins):
        if not isinstance(o, list) or not isinstance(x, list) \
                or not all(isinstance(n, int) and n >= 0 for n in (*o, *x)):
            return None
        mine = sums[at:at + len(o) + len(x)]
        at += len(o) + len(x)
        if len(mine) != len(o) + len(x) or any(s.dtype != torch.int64 or tuple(s.shape) != (T.n_chunks(n), 2)
                                               for s, n in zip(mine, (*o, *x))):
            return None
        result.append((o, mine[:len(o)], x, mine[len(o):]))
    return result if at == len(sums) else None


def choose_chunks(nbytes: list[int], sample_bytes: int, rng: secrets.SystemRandom) -> list[list[int] | None]:
    """Which chunks of each tensor a reveal asks for, drawn after the commitment: all of a
    tensor up to `sample_bytes` (None); of a bigger one its first and last chunks and random
    others, about `sample_bytes` in all. A timed forward that is wrong on a share f of its
    output escapes one such reveal with probability about (1 - f)^chunks."""
    chosen: list[list[int] | None] = []
    for n in nbytes:
        if n <= sample_bytes:
            chosen.append(None)
            continue
        total = T.n_chunks(n)
        k = min(total, max(2, sample_bytes // T.chunk_bytes(n)))
        chosen.append(sorted({0, total - 1, *rng.sample(range(1, total - 1), k - 2)}))
    return chosen


class _ChildError(Exception):
    def __init__(self, reply: dict):
        super().__init__(str(reply.get("message", "")))
        self.reply = reply


def _reveal(series: Series, r: int, child, index: int, reply_of_go: dict, deadline_s: float,
            inputs: bool, chunks: list[list[int] | None]) -> None:
    """A timed forward's outputs (and, asked, its tensor inputs as it left them), whole or
    the `chunks` chosen per tensor, checked against what the child committed to; kept in
    `series` as run `r`."""
    out_bytes, out_sums, in_bytes, in_sums = reply_of_go["commitment"][index]
    nbytes, sums = [*out_bytes, *(in_bytes if inputs else [])], [*out_sums, *(in_sums if inputs else [])]
    # the reply may hold what was asked and no more (the channel refuses the rest unread)
    asked = sum(n if c is None else len(c) * T.chunk_bytes(n) for n, c in zip(nbytes, chunks))
    reply, tensors = child.request({"op": "reveal", "index": index, "inputs": inputs, "chunks": chunks},
                                   deadline_s, max_bytes=asked + (1 << 20))
    if reply.get("op") != "result":
        raise _ChildError(reply)
    shapes = reply.get("shapes")
    if len(tensors) != len(nbytes) or not all(T.check_part(t, n, c, s)
                                              for t, n, c, s in zip(tensors, nbytes, chunks, sums)):
        raise ForgedTiming("the outputs revealed after a timed run are not the ones the child "
                           "committed to when the run ended")
    series.revealed[r], series.revealed_outputs[r] = tensors, len(out_bytes)
    series.revealed_nbytes[r], series.reveal_chunks[r] = nbytes, chunks
    series.revealed_shapes[r] = [list(s) for s in shapes] if isinstance(shapes, list) and len(shapes) == len(
        tensors) and all(isinstance(s, list) for s in shapes) else None


def _note_inputs(series: Series, reply: dict, positions, warmup: int) -> None:
    sums = reply.get("input_checksums")
    for j, i in enumerate(positions):
        series.input_checksums[i - warmup] = list(sums[j]) if isinstance(sums, list) else None


def run_count(cfg: TimingConfig, device: str, estimate_s: float) -> int:
    """Timed forwards: rep_ms of device time at the estimated forward time, within bounds."""
    if device != "cuda":
        return cfg.cpu_runs
    return int(min(cfg.max_runs, max(cfg.min_runs, cfg.rep_ms / 1e3 / max(estimate_s, 1e-6))))


def batch_size(cfg: TimingConfig, device: str, estimate_s: float, bytes_per_forward: int) -> int:
    """Forwards per timed round trip: about batch_ms of device time, at most max_batch,
    and no more draws and outputs at once than batch_memory_bytes (1 off the GPU)."""
    if device != "cuda":
        return 1
    k = math.ceil(cfg.batch_ms / 1e3 / max(estimate_s, 1e-6))
    if bytes_per_forward > 0 and cfg.batch_memory_bytes > 0:
        k = min(k, cfg.batch_memory_bytes // bytes_per_forward)
    return int(max(1, min(k, cfg.max_batch)))


def reveal_probability(cfg: TimingConfig, device: str, runs: int) -> float:
    """Chance that a timed forward is revealed, the same for every one. Under the
    interpreter runs are few and cheap to check: every one. On the GPU the expected number
    of reveals is reveal_fraction of the forwards, within [min_reveals, max_reveals]."""
    if device != "cuda" or runs <= 0:
        return 1.0
    expected = min(runs, cfg.max_reveals, max(cfg.min_reveals, math.ceil(cfg.reveal_fraction * runs)))
    return expected / runs


def _warm_up(child, schedule: Schedule, fill: Fill, timeout_s) -> tuple[list[float], int]:
    """The untimed forwards, one per round trip: (worker-clock seconds, input bytes)."""
    times, nbytes = [], 0
    for i in range(schedule.warmup):
        nbytes = int(_arm(child, schedule, [i], timeout_s())[0].get("nbytes", 0) or 0)
        times.append(_go(child, 1, fill, timeout_s())[1])
    return times, nbytes


def time_candidate(child, set_ids: list[int], cfg: TimingConfig, device: str, fill: Fill | int,
                   timeout_s, profiled_runs: int = 0, output_bytes: int = 0,
                   groups: list[list[int]] | None = None,
                   watch: bool = False, inputs_out: bool = False) -> tuple[Schedule, Series, frozenset[int]]:
    """Warm-up, then timed batches with reveals chosen after each commitment.
    `profiled_runs` more batches, at positions drawn here, run under the profiler: to the
    forward they are timed batches like the others (so coverage describes the forward
    that is timed, and counting calls does not find them); their times are not used.
    The batch size comes from the warm-up less this child's own null round trip (an
    estimate only; nothing the child claims is subtracted from its time). A forward that
    returns the same memory twice in one batch (a reused output buffer) is timed again,
    one forward per round trip, so no later forward overwrites an earlier one's result.
    `watch`: the provenance watch runs in every timed batch, not only the profiled ones.
    `inputs_out`: the reference writes its inputs, so what a forward leaves in them is an
    output: every reveal carries the inputs too, not a few (red team s30: an in-place effect
    skipped in most timed forwards escaped the ~3 input reveals of a GPU timing 17-24% of
    the time, and its checksums are not compared, rounding differing)."""
    groups = groups or [list(set_ids)]
    fill = Fill.of(fill)
    try:
        return _time_candidate(child, set_ids, cfg, device, fill, timeout_s, profiled_runs, output_bytes,
                               groups, watch, inputs_out)
    except _Aliased:  # the forward reuses its output memory: one forward per round trip
        return _time_candidate(child, set_ids, cfg.model_copy(update={"max_batch": 1}), device, fill,
                               timeout_s, profiled_runs, output_bytes, groups, watch, inputs_out)


class _Aliased(Exception):
    """Two forwards of one batch returned the same memory."""


def _time_candidate(child, set_ids: list[int], cfg: TimingConfig, device: str, fill: Fill,
                    timeout_s, profiled_runs: int, output_bytes: int,
                    groups: list[list[int]], watch: bool = False,
                    inputs_out: bool = False) -> tuple[Schedule, Series, frozenset[int]]:
    rng = secrets.SystemRandom()
    warmup = max(cfg.warmup_runs if device == "cuda" else cfg.cpu_warmup_runs, 1)
    schedule = Schedule((), (), warmup).extend(warmup, set_ids, rng)
    warm, nbytes = _warm_up(child, schedule, fill, timeout_s)
    overhead = _go(child, 1, fill, timeout_s(), null=True)[1] if device == "cuda" else 0.0
    estimate = max(statistics.median(warm) - overhead, 1e-6)
    k = batch_size(cfg, device, estimate, nbytes + output_bytes)
    n_batches = max(math.ceil(run_count(cfg, device, estimate) / k), cfg.min_batches if device == "cuda"
                    else len(groups) * cfg.cpu_batches_per_kind, len(groups))
    total = n_batches + profiled_runs
    profiled = frozenset(rng.sample(range(total), profiled_runs))
    # the timed batches take the groups in turn, and so do the profiled ones, in random orders
    timed, shown = balanced(n_batches, len(groups), rng), balanced(profiled_runs, len(groups), rng)
    order = [shown.pop() if b in profiled else timed.pop() for b in range(total)]
    schedule = Schedule(schedule.sets, schedule.seeds, warmup, profiled, k).extend_batches(order, groups, rng)
    p = reveal_probability(cfg, device, n_batches * k)
    p_inputs = 1.0 if inputs_out else min(1.0, cfg.input_reveals / max(p * n_batches * k, 1.0))
    series, chosen = Series(batch=k), set()
    b = 0
    while True:
        batches = schedule.batches()
        if b == len(batches):
            more = more_batches(series, cfg, device, groups)
            if not more:
                break
            schedule = schedule.extend_batches(balanced(more, len(groups), rng), groups, rng)
            continue
        positions, b = batches[b], b + 1
        profiled = b - 1 in schedule.profiled
        _, arm_s = _arm(child, schedule, positions, timeout_s())
        reply, seconds = _go(child, len(positions), fill, timeout_s(), profile=profiled, watch=watch,
                             inputs_out=inputs_out)
        if reply.get("aliased") and len(positions) > 1:
            raise _Aliased()
        launches, programs = reply.get("own_launches"), reply.get("own_programs")
        variants, own_w = reply.get("own_variants"), reply.get("own_work")
        for j, i in enumerate(positions):
            r = i - warmup
            if isinstance(own_w, list) and j < len(own_w) and type(own_w[j]) is int:
                if profiled:
                    series.profiled_work.append(own_w[j])
                else:
                    series.own_work[r] = own_w[j]
            series.own_programs[r] = programs[j] if isinstance(programs, list) and j < len(programs) \
                and isinstance(programs[j], dict) else {}
            series.own_variants[r] = variants[j] if isinstance(variants, list) and j < len(variants) \
                and isinstance(variants[j], list) else None
            series.own_launches[r] = int(launches[j]) if isinstance(launches, list) and j < len(launches) \
                and isinstance(launches[j], int) else 0
        if isinstance(reply.get("provenance"), dict):  # profiled batches, and watched ones
            series.provenance.append(reply["provenance"])
        if profiled:
            if isinstance(reply.get("coverage"), dict):
                series.coverage.append(reply["coverage"])
        else:
            series.times_s.append(seconds)
            series.around_s.append(arm_s + reply["commit_s"])
            series.commit_s.append(reply["commit_s"])
            series.batch_sets.append(schedule.sets[positions[0]])
            series.null_s.append(_go(child, len(positions), fill, timeout_s(), null=True)[1])
            if isinstance(reply.get("events_s"), list):
                series.events_s.extend(float(e) for e in reply["events_s"])
            if reply.get("host_s") is not None:
                series.host_s.extend(reply["host_s"])
        _note_inputs(series, reply, positions, warmup)
        for out_bytes, *_ in reply["commitment"]:  # every forward of the batch, before any reveal
            if output_bytes and sum(out_bytes) > output_bytes:
                raise ForgedTiming(f"a timed forward committed to {sum(out_bytes)} bytes of outputs; the "
                                   f"reference's are {output_bytes}, as the trials' were")
        for j, i in enumerate(positions):
            if p >= 1.0 or rng.random() < p:
                chosen.add(i - warmup)
                inputs = rng.random() < p_inputs
                if inputs:
                    series.inputs_revealed.add(i - warmup)
                out_bytes, _, in_bytes, _ = reply["commitment"][j]
                chunks = choose_chunks([*out_bytes, *(in_bytes if inputs else [])], cfg.reveal_sample_bytes, rng)
                _reveal(series, i - warmup, child, j, reply, timeout_s(), inputs, chunks)
    return schedule, series, frozenset(chosen)


def time_reference(child, schedule: Schedule, reveal: frozenset[int], device: str,
                   fill: Fill | int, timeout_s, reveal_inputs: frozenset[int] = frozenset(),
                   candidate: Series | None = None, sample_bytes: int = 32 << 20,
                   spiked: frozenset[int] = frozenset(), rest_within: list | None = None,
                   rounds: int = 1) -> Series:
    """The same schedule on the reference, each timed batch followed by a null batch; the batches
    the candidate ran under the profiler run under it here too (a process that has run the
    profiler pays more per CUDA call, so both carry that alike). Revealed runs reveal the
    chunks the `candidate`'s reveals did, where a tensor has the same size on both sides; on a
    `spiked` run the precision deviation is also measured over the rest (`rest_within`, per
    output: judge.judge_reveals). Each timed batch is timed `rounds` times (`_reference_batch`)."""
    series = Series(batch=schedule.batch)
    rng = secrets.SystemRandom()
    fill = Fill.of(fill)
    _warm_up(child, schedule, fill, timeout_s)
    _first_draws(child, schedule, rng, timeout_s)
    _go(child, schedule.batch, fill, timeout_s(), null=True)  # warm the null path too
    for b, positions in enumerate(schedule.batches()):
        reply, seconds, around_s, null_s = _reference_batch(child, schedule, positions, fill, timeout_s,
                                                            b in schedule.profiled, rounds)
        if b in schedule.profiled and isinstance(reply.get("coverage"), dict):  # the work meter's
            series.coverage.append(reply["coverage"])
        if b not in schedule.profiled:  # the batches the candidate ran profiled: not compared
            series.times_s.append(seconds)
            series.around_s.append(around_s)
            series.commit_s.append(reply["commit_s"])
            series.batch_sets.append(schedule.sets[positions[0]])
            series.null_s.append(null_s)
            if isinstance(reply.get("events_s"), list):
                series.events_s.extend(float(e) for e in reply["events_s"])
            if reply.get("host_s") is not None:
                series.host_s.extend(reply["host_s"])
        _note_inputs(series, reply, positions, schedule.warmup)
        for j, i in enumerate(positions):
            r = i - schedule.warmup
            if r not in reveal:
                continue
            out_bytes, _, in_bytes, _ = reply["commitment"][j]
            nbytes = [*out_bytes, *(in_bytes if r in reveal_inputs else [])]
            theirs = candidate.reveal_chunks.get(r, []) if candidate is not None else []
            sizes = candidate.revealed_nbytes.get(r, []) if candidate is not None else []
            chunks = [theirs[k] if k < len(theirs) and k < len(sizes) and sizes[k] == n
                      else choose_chunks([n], sample_bytes, rng)[0] for k, n in enumerate(nbytes)]
            _reveal(series, r, child, j, reply, timeout_s(), r in reveal_inputs, chunks)
            header = {"op": "alt", "index": j}  # TF32's deviation there
            if r in spiked and rest_within:
                header["rest_within"] = rest_within
            alt, _ = child.request(header, timeout_s())
            if alt.get("op") != "result":
                raise _ChildError(alt)
            series.revealed_tf32[r] = list(alt.get("tf32") or [])
            series.revealed_tf32_rest[r] = list(alt.get("tf32_rest") or [])
    return series


def _first_draws(child, schedule: Schedule, rng: secrets.SystemRandom, timeout_s) -> None:
    """One untimed draw of each input set the warm-up did not draw (the reference child's
    first draw of a set is made twice, its determinism checked: TimedSteps.arm), so no timed
    arm of the reference carries it. On the CPU the one warm-up forward draws one set of two,
    and the other's first timed arm was the reference's double draw: an allowance the
    candidate's arm + commit could spend beyond its own draws (red team rt81)."""
    drawn = set(schedule.sets[:schedule.warmup])
    for set_id in dict.fromkeys(schedule.sets[schedule.warmup:]):
        if set_id not in drawn:
            armed, _ = child.request({"op": "arm", "ids": [set_id], "seeds": [rng.getrandbits(63)]}, timeout_s())
            if armed.get("op") != "armed":
                raise _ChildError(armed)


def balanced(n: int, groups: int, rng: secrets.SystemRandom) -> list[int]:
    """n group numbers, each group as often as can be, in a random order."""
    order = [b % groups for b in range(n)]
    rng.shuffle(order)
    return order


def _reference_batch(child, schedule: Schedule, positions: list[int], fill: Fill, timeout_s,
                     profiled: bool, rounds: int) -> tuple[dict, float, float, float]:
    """One batch of the reference's schedule: (the last go's reply, go seconds, arm + commit
    seconds, null seconds). Timed `rounds` times over the same draws (each round draws them
    again from the same seeds: an in-place reference finds its inputs fresh), the round of
    median net time kept: a fast reference's net time is a small difference of two round
    trips, and on 2 loaded cores a 3-8 ms hiccup in one of five of a 0.15 ms relu's gos,
    with two batches per kind of input, moved an honest file's CPU speedup 20x between
    evaluations (session 57; `timing.cpu_reference_rounds`). The reference is trusted and
    its forwards are cheap; the reveals read the last round's outputs, the last go's."""
    timed = []
    for _ in range(1 if profiled else max(rounds, 1)):
        _, arm_s = _arm(child, schedule, positions, timeout_s())
        reply, seconds = _go(child, len(positions), fill, timeout_s(), profile=profiled)
        null_s = 0.0 if profiled else _go(child, len(positions), fill, timeout_s(), null=True)[1]
        timed.append((seconds - null_s, seconds, arm_s + reply["commit_s"], null_s))
    _, seconds, around_s, null_s = sorted(timed)[len(timed) // 2]
    return reply, seconds, around_s, null_s

