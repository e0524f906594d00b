"""The reference phase of an evaluation (evaluator.pipeline): a new problem's measuring run,
then the trusted reference child's outputs for the trials and the knock-out runs.

Both run under a device-memory reservation with the reference child capped at it, as a
candidate's child is: a reference that needs more than its reservation runs out of
memory alone (`OverCap`) and is run again under the whole budget, instead of taking
device memory that other evaluations hold (an 8 GiB-output KernelBench reference once
took 77 GiB and made a neighbour's reference fail). Everything here runs only the
problem's code in a process that never ran candidate code; a failure is the problem's
(`ProblemFailed`), not a verdict on the candidate.

Here too are the run's reference-child commands that the other phases send (`request`,
`run_command`: the knock-out round's and the timing's reference runs, the depth phase's
`prepare`), and the plan's input sets both children make (`trial_sets`, `knockout_ids`,
`trials_kept`).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from common.config.evaluator import EvaluatorConfig
from evaluator import feedback as F
from evaluator import runner, timing
from evaluator.memory import Grant
from evaluator.output_facts import all_finite
from evaluator.reference import (
    OverCap,
    ProblemFailed,
    ProblemRaised,
    ReferenceOutputs,
    reference_timeout,
    split_outputs,
)
from evaluator.sandbox import Child, ChildFailure

if TYPE_CHECKING:
    from evaluator.pipeline import _Run

KNOCKOUT_SET, TORCH_KNOCKOUT_SET = 1000, 1001  # the knock-out runs' input-set ids (the trials are 0..n-1)
REFERENCE_TIME_SHARE = 0.25  # of the evaluation's time limit, at least, for timing its reference
# phases before any candidate code runs: a reference that uses up the time there is the problem's
_BEFORE_CANDIDATE = ("start-up", "static", "reference", "inputs")


# ---------------------------------------------------------------------- the plan's input sets
def trial_sets(run: _Run) -> list[dict]:
    """The correctness trials (ids 0..n-1) and the knock-out run's own inputs."""
    seed, dist = run.plan.knockout
    sets = [{"id": i, "seed": s, "transform": d} for i, (s, d) in enumerate(run.plan.trials)]
    if run.depth_run:
        return sets
    sets.append({"id": KNOCKOUT_SET, "seed": seed, "transform": dist})
    if run.plan.torch_knockout is not None:
        seed, dist = run.plan.torch_knockout
        sets.append({"id": TORCH_KNOCKOUT_SET, "seed": seed, "transform": dist})
    return sets


def knockout_ids(run: _Run) -> list[int]:
    if run.depth_run:
        return []
    ids = [KNOCKOUT_SET] + ([TORCH_KNOCKOUT_SET] if run.plan.torch_knockout is not None else [])
    return [i for i in ids if i not in run.lost]  # one that lost a child's device raised (device_lost)


def trials_kept(run: _Run, set_bytes: int) -> list[int]:
    """Which trials of the plan run, once one set's outputs are known: all of them, or,
    when the worker would hold more than `correctness.reduced_trials_above_bytes` per
    set, the first base trial and every non-base one (scaled inputs): a level-1
    KernelBench output of 6 GiB x 6 sets x 2 sides held 72 GiB of the worker's memory."""
    every = list(range(len(run.plan.trials)))
    if set_bytes <= run.cfg.correctness.reduced_trials_above_bytes:
        return every
    return [0] + [i for i, (_, dist) in enumerate(run.plan.trials) if i and dist != "base"]


# ---------------------------------------------------------------------- the reference child's commands
def request(run: _Run, child: Child, header: dict, shared: bool = True,
            over_cap: bool = False, timeout_s: float | None = None) -> tuple[dict, list]:
    """A reference-child command (within `timeout_s`, default what is left of the
    evaluation); any failure is the problem's (with over_cap, running out of device
    memory under a capped reference run raises OverCap instead). Once the candidate has
    run, the reference's time is not the candidate's: the command has at least a share of
    the limit of its own and the deadline moves by what it took, and a command that finds
    the time already used up is the candidate's `timeout` (its trials spent it: no "not
    your kernel" for a slow kernel, no timeout for a kernel beside a slow reference)."""
    lock = run.holding(run.ev.device_lock.shared()) if shared else nullcontext()
    after = timeout_s is None and run.current not in _BEFORE_CANDIDATE
    if after and run.left() <= 0:
        raise ChildFailure("timeout", "the time ran out before the reference's next command")
    own = run.left() if timeout_s is None else timeout_s
    if after:
        own = max(own, run.timeout_s * REFERENCE_TIME_SHARE)
    try:
        with lock:
            started = time.monotonic()  # after the lock's wait, which holding() gives back
            try:
                reply, tensors = child.request(header, own)
            finally:
                if after:
                    run.deadline += time.monotonic() - started
    except ChildFailure as exc:
        if after and exc.status == "timeout":
            raise reference_timeout() from None
        raise ProblemFailed(f"{exc.reason}\n{F.untrusted(run.sanitize(exc.log_tail[-1500:]))}") from None
    if reply.get("op") == "error":
        if over_cap and reply.get("device_oom"):
            raise OverCap()
        text = str(reply.get("traceback") or reply.get("message"))
        raise ProblemRaised(F.untrusted(F.trim_traceback(run.sanitize(text))))
    return reply, tensors


def run_command(run: _Run, i: int, last: bool) -> dict:
    """The reference child's `run` of set i (set 0 also checks the forward repeats)."""
    return {"op": "run", "ids": [i], "return_inputs": True, "tf32": True, "check_repeat": i == 0,
            "noise": i < len(run.plan.trials),
            "last": last, "max_output_bytes": run.cfg.correctness.max_output_bytes}


def _finite(t: dict, outputs: list, inputs_after: list) -> bool:
    """Whether a reference trial's outputs (and in-place inputs) are all finite, from the facts
    measured where they were made (output_facts.output_facts), else measured here."""
    facts = t.get("facts")
    if isinstance(facts, list) and len(facts) == len(outputs) + len(inputs_after):
        return all(f["finite"] for f in facts)
    return all(all_finite(x) for x in [*outputs, *inputs_after])


def _unjudged_overflow(trials: list[dict], outputs: list, inputs_after: list) -> None:
    """A scaled or shifted trial on which the problem's own forward overflows, where its base
    trial did not, is marked `overflow` (and `finite` False: never a timing distribution):
    where a product of scaled inputs overflows, inf x 0 is NaN or 0 depending on the order of
    the multiplications, so an honest scan's answer differs from the reference's in a few
    elements (KernelBench level1/90_cumprod at scale 1e3, session 23). Such a trial is judged
    everywhere but there (judge._overflow_agreed)."""
    if not trials or trials[0].get("transform") != "base" or not _finite(trials[0], outputs[0], inputs_after[0]):
        return
    for i, t in enumerate(trials):
        if str(t.get("transform", "")).startswith(("scale", "shift")) and not _finite(t, outputs[i], inputs_after[i]):
            t["finite"], t["overflow"] = False, True


def host_need(cfg: EvaluatorConfig, reference_bytes: int) -> int:
    """The worker's memory for one evaluation: the reference's outputs and, at most, as many
    of the candidate's (bounded by the reference's per set), and a few reveal samples of
    both children."""
    return 2 * reference_bytes + cfg.timing.reveal_sample_bytes * 8


def _attempts(run: _Run, tries: list[int | None], body: Callable[[Child, Grant, bool], Any]) -> Any:
    """`body(child, grant, capped)` under each reservation of `tries` in turn, the reference
    child capped at it where it is less than the whole budget, until one does not run out
    of memory under its cap. The last try is never capped: what fails there is the problem's."""
    memory = run.ev.memory
    for need in tries:
        capped = need is not None and need < (memory.capacity or 0)
        with run.holding(memory.reserve(need)) as grant, run.ev.pool.reference() as child, \
                _capped(run, child, need if capped else None):
            try:
                return body(child, grant, capped)
            except OverCap:
                continue
    raise AssertionError("the last reservation is the whole budget, which is never capped")


@contextmanager
def _capped(run: _Run, child: Child, nbytes: int | None) -> Iterator[None]:
    if nbytes is None:
        yield
        return
    request(run, child, {"op": "cap", "bytes": nbytes})
    try:
        yield
    finally:
        if not child.closed:  # a child that failed under its cap is replaced, not uncapped
            request(run, child, {"op": "cap", "bytes": None})


def measure(run: _Run) -> None:
    """An unseen problem's sizes, before anything is reserved for its outputs: the reference
    child runs the first input set once and sends only what it would send (descriptors and
    a byte count). The device is held for that one forward, not for a whole reference
    phase; the device footprint and the worker's host need are then known, so neither this
    evaluation nor the ones queued behind it wait on whole budgets."""
    host, memory = run.ev.host_memory, run.ev.memory
    if host.capacity is None or host.footprint(run.memory_key) is not None:
        return
    with run.ev.references.computing("measure:" + run.memory_key):
        if host.footprint(run.memory_key) is not None:  # measured while this one waited
            return
        run.ev.learn_device()
        known = memory.footprint(run.memory_key)
        tries = memory.measure_bytes() if known is None else memory.then_whole(memory.reference_bytes(known))

        def once(child: Child, _grant: Grant, capped: bool) -> dict:
            request(run, child, {"op": "prepare", "problem": run.problem.source, "sizes": run.sizes,
                                 "sets": trial_sets(run)[:1], "reset_sets": True}, over_cap=capped)
            request(run, child, {"op": "model", "init_seed": run.plan.init_seed}, over_cap=capped)
            reply, _ = request(run, child, dict(run_command(run, 0, last=True), describe_only=True),
                               over_cap=capped)
            return reply

        reply = _attempts(run, tries, once)
        memory.record(run.memory_key, int(reply.get("peak_device_bytes") or 0))
        first = reply["trials"][0]
        if first.get("problem"):
            raise ProblemFailed(f"the reference's outputs cannot be used: {first['problem']}")
        set_bytes = int(first["nbytes"])
        sets = len(trials_kept(run, set_bytes)) + len(knockout_ids(run))
        host.record(run.memory_key, host_need(run.cfg, sets * set_bytes))


_DROPPED: list = []


def _outside_domain(run: _Run, i: int) -> bool:
    """Whether set i is a correctness trial on moved inputs (scaled, shifted, spiked), where
    an error of the problem's own forward means the inputs left its domain, not that the
    problem is broken: such a trial is dropped (its error once failed the whole evaluation,
    "not your kernel", for an honest BCE-of-probabilities kernel)."""
    return 0 < i < len(run.plan.trials) and run.plan.trials[i][1] != "base"


def rest_within(trials: list[dict], plan_trials: Sequence[tuple[int, str]]) -> list[float | None]:
    """Per output, the magnitude under which a spiked trial's elements are its rest
    (judge.SPIKE_REACH times the largest on the base trials run so far, which run first):
    where the reference child also measures its precision deviation (`tf32_rest`)."""
    from evaluator.judge import SPIKE_REACH

    peaks: list[float | None] = []
    for t in trials:
        sid = t.get("id")
        if not isinstance(sid, int) or sid >= len(plan_trials) or plan_trials[sid][1] != "base":
            continue
        for j, f in enumerate(t.get("facts") or []):
            p = f.get("peak") if isinstance(f, dict) else None
            if j >= len(peaks):
                peaks.append(None)
            if isinstance(p, (int, float)) and math.isfinite(p):
                peaks[j] = max(float(p), peaks[j] or 0.0)
    return [SPIKE_REACH * p if p else None for p in peaks]


def _sequences(numbers: object) -> list[tuple]:
    """The reference child's problem sequences (`problem_numbers.problem_numbers`), as tuples of floats."""
    if not isinstance(numbers, list):
        return []
    return [tuple(v for v in seq if type(v) is float) for seq in numbers if isinstance(seq, list)]


def compute(run: _Run, key: str) -> ReferenceOutputs:
    """The reference's outputs for the plan's trials and the knock-out runs, one set per
    command (one set's GiBs in flight at a time); cached by the caller."""
    run.ev.learn_device()
    memory = run.ev.memory
    known = memory.footprint(run.memory_key)
    tries = memory.then_whole(memory.reference_bytes(known))

    def once(child: Child, grant: Grant, capped: bool) -> tuple[dict, str, list, list, list[int]]:
        prep, _ = request(run, child, {"op": "prepare", "problem": run.problem.source, "sizes": run.sizes,
                                       "sets": trial_sets(run), "reset_sets": True}, over_cap=capped)
        built, _ = request(run, child, {"op": "model", "init_seed": run.plan.init_seed}, over_cap=capped)
        init = str(built.get("init") or "host")  # where its parameters were drawn (model_build.build)
        found = set(_sequences(built.get("numbers")))  # (evaluator.problem_numbers)
        extra = knockout_ids(run)
        trials, tensors = [], []

        final = extra[-1] if extra else len(run.plan.trials) - 1  # a depth run has no knock-out

        def one(i: int) -> list | None:  # None: a problem; _DROPPED: dropped
            header = run_command(run, i, last=i == final)
            if i < len(run.plan.trials) and str(run.plan.trials[i][1]).startswith("spike"):
                header["rest_within"] = rest_within(trials, run.plan.trials)
            try:
                reply, more = request(run, child, header, over_cap=capped)
            except ProblemFailed as exc:
                if not _outside_domain(run, i) or child.closed:
                    raise
                # the problem's own code refuses these moved inputs (BCE of probabilities times
                # 1e3): no kernel can be judged on them, and the others still judge it
                run.details.setdefault("trials_dropped", []).append(
                    {"inputs": run.plan.trials[i][1], "why": (str(exc).strip().splitlines() or [""])[-1][:300]})
                return _DROPPED
            for t in reply["trials"]:  # its first forward's tables (evaluator.problem_numbers)
                found.update(_sequences(t.pop("numbers", None)))
            trials.extend(reply["trials"])
            tensors.extend(more)
            memory.record(run.memory_key, int(reply.get("peak_device_bytes") or 0))
            return None if any(t.get("problem") for t in reply["trials"]) else more

        first, keep = one(0), list(range(len(run.plan.trials)))
        if first is not None:
            if not capped:  # the footprint is known: the rest of the device is free for others
                grant.shrink(memory.reference_bytes(memory.footprint(run.memory_key)) or grant.nbytes)
            keep = trials_kept(run, sum(t.numel() * t.element_size() for t in first))
            for i in [*keep[1:], *extra]:
                done = one(i)
                if done is None:
                    break
                if done is _DROPPED:
                    keep.remove(i)
        return prep, (init, tuple(sorted(found))), trials, tensors, keep

    prep, (init, numbers), trials, tensors, keep = _attempts(run, tries, once)
    numbers = tuple(list(seq) for seq in numbers)
    run.details["reference_stages"] = timing.stage_sums(trials)
    extra = knockout_ids(run)
    n = len(keep)
    if len(trials) < n + len(extra) or any(t.get("problem") for t in trials):
        bad = next((t.get("problem") for t in trials if t.get("problem")), "not every trial ran")
        raise ProblemFailed(f"the reference's outputs cannot be used: {bad}")
    outputs, inputs_after, tf32 = split_outputs(trials, tensors)
    for i, t in enumerate(trials[:n]):
        t.update(prep["sets"][str(keep[i])])
        if str(t.get("transform", "")).startswith("spike"):  # judged, and used for timing, only where finite
            t["finite"] = _finite(t, outputs[i], inputs_after[i])
    _unjudged_overflow(trials[:n], outputs, inputs_after)
    if any(t.get("transform") == "spike" and t.get("finite") is False for t in trials[:n]):
        # the problem's own forward overflows on the spike (a naive exp(x) / sum(exp(x))): once
        # more with the spike capped, so that trial is judged and the timed runs are spiked
        # (red team F, session 18: unjudged, a kernel that summed a quarter of the input was ok)
        capped = f"spike:{runner.SPIKE_CAPPED:g}"
        run.plan = replace(run.plan, trials=tuple((s, capped if d == "spike" else d) for s, d in run.plan.trials))
        return compute(run, key)
    # the candidate's sets are numbered by the kept trials (`reference` adopts this plan)
    plan = replace(run.plan, trials=tuple(run.plan.trials[i] for i in keep))
    ref = ReferenceOutputs(trials=trials[:n], outputs=outputs[:n], inputs_after=inputs_after[:n],
                           knockout=outputs[n] if extra else [], tf32=tf32[:n],
                           torch_knockout=outputs[n + 1] if len(extra) > 1 else [],
                           torch_knockout_tf32=tf32[n + 1] if len(extra) > 1 else [],
                           plan=plan, init=init, numbers=numbers)
    run.ev.references.put(key, ref)
    return ref
