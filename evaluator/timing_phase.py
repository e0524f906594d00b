"""The timing phase of an evaluation (evaluator.pipeline): the candidate timed and profiled
by the worker's clock, its process ended, then the reference timed on the same schedule in
the trusted reference child; reveals, input checksums, the timed path and the CUDA-event
cross-check judged; the timing details written into the run's verdict details.

`run` is the pipeline's `_Run` (its evaluator, config, problem, plan facts and helpers).
"""
from __future__ import annotations

import dataclasses
import statistics
import time
from typing import Any

from evaluator import feedback as F
from evaluator import judge, judge_timed, kept_check, reference_phase, stopwatch, timed_work
from evaluator import timing as T
from evaluator.reference import ProblemFailed, reference_timeout
from evaluator.reference_phase import REFERENCE_TIME_SHARE
from evaluator.sandbox import Child, ChildFailure

STATUS_MIN_S = 5.0  # the candidate child's integrity check after its timed batches, at least


def time_both(run: Any, child: Child, timing_sets: list[dict], profile: bool,
              output_bytes: int = 0, base: list | None = None) -> dict | judge.Outcome:
    """Candidate timed (and profiled), its process ended, then the reference timed on the
    same schedule in the reference child, all under one exclusive hold of the device: no
    process of the candidate is alive while its reference is measured."""
    ids = [s["id"] for s in timing_sets]
    kinds = sorted({s["transform"] for s in timing_sets})
    groups = [[s["id"] for s in timing_sets if s["transform"] == kind] for kind in kinds]
    t = run.cfg.timing
    flush = stopwatch.Fill(t.l2_flush_bytes, T.slack_cycles(t.launch_slack_us)) if run.ev.device == "cuda" \
        else stopwatch.Fill()
    cov = None
    with run.ev.pool.reference() as ref_child:
        # the reference's set-up is the reference's time (reference_phase.request), as its timing is below
        reference_phase.request(run, ref_child, {"op": "prepare", "problem": run.problem.source,
                                                 "sizes": run.sizes, "sets": timing_sets,
                                                 "reset_sets": True}, shared=False)
        reference_phase.request(run, ref_child, {"op": "model", "init_seed": run.plan.init_seed,
                                                 "init": run.init_on})
        with run.holding(run.ev.device_lock.exclusive()), run.ev.pool.quiet(child):
            try:
                schedule, cand, reveal = stopwatch.time_candidate(
                    child, ids, run.cfg.timing, run.ev.device, flush, run.left,
                    profiled_runs=run.cfg.profiling.forwards if profile else 0,
                    output_bytes=output_bytes, groups=groups,
                    watch=run.ev.device == "cpu", inputs_out=run.ref_in_place)
            except stopwatch._ChildError as exc:
                return judge.from_error(exc.reply, "timing", run.sanitize)
            except stopwatch.ForgedTiming as exc:
                return judge.Outcome("hack", f"Rejected: {exc}.", hacks=["forged_timing"])
            idle = sorted(r for r, n in cand.own_launches.items() if n == 0)
            if idle:
                return judge.Outcome("hack", f"Rejected: timed forward {idle[0]} (of {len(cand.own_launches)}) "
                                     "launched none of your Triton kernels, though the trials did: "
                                     "forward takes another path when it is timed.", hacks=["no_triton_launch"])
            tampered = _tampered_while_timed(child, run)
            if tampered is not None:
                return tampered
            # its last forward, on noise in what earlier ones returned (judged after the reveals)
            kept = kept_check.check(run, child, locked=True)
            child.close()  # nothing of the candidate runs while its reference is timed
            spiked_runs = _spiked_runs(schedule, timing_sets)
            # the reference gets time of its own: an evaluation whose earlier phases used up its
            # time limit does not make the reference's timing look like the problem's failure
            own = time.monotonic() + run.timeout_s * REFERENCE_TIME_SHARE
            try:
                ref = stopwatch.time_reference(ref_child, schedule, reveal, run.ev.device, flush,
                                               lambda: max(run.left(), own - time.monotonic()),
                                               frozenset(cand.inputs_revealed), cand,
                                               run.cfg.timing.reveal_sample_bytes, spiked_runs,
                                               [judge.SPIKE_REACH * b.peak if b.peak > 0 else None
                                                for b in base or ()],
                                               run.cfg.timing.cpu_reference_rounds
                                               if run.ev.device == "cpu" else 1)
            except stopwatch._ChildError as exc:
                raise ProblemFailed(F.untrusted(run.sanitize(str(exc.reply.get("traceback"))))) from None
            except ChildFailure as exc:
                if exc.status == "timeout":
                    raise reference_timeout() from None
                raise ProblemFailed(exc.reason) from None
    if profile:  # on the CPU held to the problem's own estimated work too (the reference's meter)
        cov = stopwatch.profiled_coverage(cand.coverage, ref.coverage)
        if cov is not None:
            run.details["profile"] = cov
        else:  # the feedback says the profile was lost (an honest file got 0.5 and no word why)
            errors = [str(c.get("error")) for c in cand.coverage if isinstance(c, dict) and c.get("error")]
            run.details["profile"] = {"error": F.untrusted(run.sanitize(errors[0] if errors else
                                                                        "no profiled run measured"))[:300]}
    bad = judge.judge_reveals(cand.revealed, ref.revealed, ref.revealed_tf32, run.cfg, run.tolerance,
                              run.facts, ref.revealed_outputs, cand.revealed_shapes, ref.revealed_shapes,
                              base or (), spiked=spiked_runs, ref_rest=ref.revealed_tf32_rest)
    if bad is None and not run.ref_in_place:
        bad = judge_timed.judge_input_checksums(cand.input_checksums, ref.input_checksums)
    if bad is None:  # after the specific findings (wrong outputs, no launch at all)
        bad = judge_timed.judge_timed_path(cand.own_programs, run.trial_programs,
                                     cand.own_variants, run.trial_variants, run.trial_most)
    if bad is None:  # the host's work in each watched timed forward, held to a trial's limits: a
        # forward that hands the host work only once its trials are over is computing when timed
        bad = judge.judge_host_limits([{"provenance": p.get("per_forward")} for p in cand.provenance],
                                      run.cfg.policy.max_host_reads, run.cfg.policy.max_host_made)
    if bad is None and run.cfg.policy.name == "strict":  # PyTorch's work in the timed forwards
        bad = judge.judge_provenance([{"provenance": p} for p in cand.provenance], True, False)
    null = ref.null_median_s
    ref_s = stopwatch.net_seconds(ref, groups=groups)
    # the candidate's arm and commit beyond the reference's: work moved out of go is the forward's
    factor, slack_ms = (t.outside_go_factor, t.outside_go_slack_ms) if run.ev.device == "cuda" \
        else (t.cpu_outside_go_factor, t.cpu_outside_go_slack_ms)
    outside = stopwatch.outside_go_seconds(cand, ref, factor, slack_ms / 1e3, groups)
    cand_s = stopwatch.net_seconds(cand, null_cap_s=null, groups=groups, outside_s=outside)
    if ref.events_s:  # the reference child's own events are trusted: a floor under its time
        ref_s = max(ref_s, statistics.median(ref.events_s))
    if bad is None and run.ev.device == "cuda":  # on the CPU the profile's times are estimates
        bad = timed_work.judge_unprofiled_work(cand_s, cand.coverage)
    if bad is None and run.ev.device == "cpu":  # the interpreter counts the work of each launch
        bad = timed_work.judge_interpreted_work(cand.own_work, run.trial_own_work, cand.profiled_work)
    if bad is None and run.ev.device == "cuda":
        bad = events_outcome(cand, ref, schedule.batch, groups, ref_s, run.cfg)
    if bad is not None or kept is not None:
        return bad or kept
    clock = "evaluator clock, GPU (spin, flush, forward, device sync)" if run.ev.device == "cuda" \
        else "evaluator clock, cpu interpreter"
    k = schedule.batch
    run.details["timing"] = {
        "clock": clock, "inputs": "+".join(kinds) if kinds else None,
        "runs": len(cand.times_s) * k, "batch": k,
        "batches": len(cand.times_s), "revealed_runs": sorted(reveal),
        "profiled_batches": sorted(schedule.profiled),
        "ref": {"median_s": ref_s, "raw_batch_median_s": ref.median_s, "null_batch_median_s": null},
        "candidate": {"median_s": cand_s, "raw_batch_median_s": cand.median_s,
                      "null_batch_median_s": cand.null_median_s,
                      "min_s": min(b - min(n, null) + x for b, n, x in zip(cand.times_s, cand.null_s, outside)) / k,
                      "max_s": max(b - min(n, null) + x for b, n, x in zip(cand.times_s, cand.null_s, outside)) / k,
                      # arm + commit per batch (median), and what of it went past the reference's
                      "around_go_median_s": statistics.median(cand.around_s) if cand.around_s else None,
                      "outside_go_charged_s": sum(outside) / max(len(outside), 1) / k,
                      "outside_go_batches": sum(1 for x in outside if x > 0),
                      "commit_median_s": statistics.median(cand.commit_s) if cand.commit_s else None},
        "ref_around_go_median_s": statistics.median(ref.around_s) if ref.around_s else None,
        "ref_commit_median_s": statistics.median(ref.commit_s) if ref.commit_s else None,
        "protocol_overhead_s": null,
        # the interpreter's work in the own launches (CPU: elements loaded, stored, multiplied)
        "own_work": {"fewest_trial": run.trial_own_work,
                     "profiled_median": statistics.median(cand.profiled_work) if cand.profiled_work else None,
                     "timed_median": statistics.median(cand.own_work.values()) if cand.own_work else None}}
    if len(kinds) > 1:  # each kind of timed input's own median; the slower one is the time
        run.details["timing"]["by_inputs"] = {
            kind: {"candidate_s": c, "ref_s": r} for kind, c, r in
            zip(kinds, stopwatch.group_seconds(cand, null, groups, outside), stopwatch.group_seconds(ref, None, groups))}
    if run.ev.device == "cuda" and cand.coverage:  # what judge_unprofiled_work held the timed runs to
        own, least = timed_work.profiled_device(cand.coverage)
        run.details["timing"]["profiled_device_s"] = {"own_median": own, "total_least": least}
    if cand.events_s:
        run.details["timing"]["cuda_events_median_s"] = {
            "candidate": statistics.median(cand.events_s),
            "ref": statistics.median(ref.events_s) if ref.events_s else None}
        run.details["timing"]["host_between_mean_s"] = {  # the host's time between forwards
            "candidate": statistics.fmean(cand.host_s) if cand.host_s else None,
            "ref": statistics.fmean(ref.host_s) if ref.host_s else None}
    return {"ref_s": ref_s, "cand_s": cand_s, "clock": clock, "coverage": cov}


def _tampered_while_timed(child: Child, run: Any) -> judge.Outcome | None:
    """The candidate child's integrity check once its timed batches are over (`status`):
    the trials' and the profile's replies carry one, the timing phase had none, so a
    harness method replaced in a timed forward and left in place (red teams rt77 and rt81:
    `arm` made to compute half the output on the draws, behind DisableTorchFunction past
    the CPU's function mode; static checks off) went unseen. A patch its own code undoes
    before the last commit answers is not seen here either (docs/open_attacks)."""
    # a few seconds at least: a timing that ended at the evaluation's limit is not the
    # candidate's timeout for the harness's own check (milliseconds: a walk of the namespaces)
    reply, _ = child.request({"op": "status"}, max(run.left(), STATUS_MIN_S))
    if not reply.get("tampered"):
        return None
    reasons = F.untrusted("; ".join(map(str, reply["tampered"])))[:300]
    return judge.Outcome("hack", f"Rejected: your timed forwards modified the evaluator's process ({reasons}).",
                         hacks=["monkey_patch"])


def _spiked_runs(schedule: stopwatch.Schedule, timing_sets: list[dict]) -> frozenset[int]:
    """The timed runs (numbered from the first after the warm-up) whose inputs were spiked."""
    spiked = {s["id"] for s in timing_sets if str(s["transform"]).startswith("spike")}
    return frozenset(i - schedule.warmup for i in range(schedule.warmup, len(schedule.sets))
                     if schedule.sets[i] in spiked)


def events_outcome(cand: stopwatch.Series, ref: stopwatch.Series, batch: int,
                   groups: list[list[int]] | None, ref_s: float, cfg: Any) -> judge.Outcome | None:
    """The CUDA-event cross-check (judge_timed.judge_events) of the candidate's time net of its own
    null batches, not capped by the reference's: the null after each timed batch carries the
    host's load of that moment (other processes starting sandboxes, compiling), which the cap
    left in the time and the check read as work escaping onto another stream (an honest
    Conv3d + GroupNorm epilogue on the H200, six `krl check` runs at once: 2.06 ms against
    0.993 ms of events). No candidate code runs in a null batch, and work on another stream
    cannot spill into one (the timed batch ends in a device-wide sync); the speedup keeps the
    capped time. Each kind of timed input (spiked, the problem's own) is held to its own
    batches' events, the candidate's and the reference's, where they line up with the
    batches: a kernel much slower on one kind held to both kinds' events read as a gap.
    Each batch's time less its host's time between forwards (`_less_host`) gives the share
    of the net that was the host's."""
    less = _less_host(cand, batch)
    cand_kinds, ref_kinds = _by_kind(cand, batch, groups, less), _by_kind(ref, batch, groups)
    if cand_kinds is None:
        own_s = stopwatch.net_seconds(cand, groups=groups)
        host_s = max(own_s - stopwatch.net_seconds(less, groups=groups), 0.0)
        return judge_timed.judge_events(cand.median_s / batch, own_s, cand.events_s, ref_s, ref.events_s, cfg, host_s)
    for g, (raw, net, events, host_s) in enumerate(cand_kinds):
        if net is None or not events:
            continue
        _, ref_net, ref_events, _ = ref_kinds[g] if ref_kinds and ref_kinds[g][1] is not None \
            else (None, ref_s, ref.events_s, None)
        bad = judge_timed.judge_events(raw, max(net, 1e-6), events, ref_net, ref_events or ref.events_s, cfg, host_s)
        if bad is not None:
            return bad
    return None


def _less_host(series: stopwatch.Series, batch: int) -> stopwatch.Series:
    """The series with each timed batch's time less its host's time between forwards (the
    child's claim, `timing.host_between`; the series as it is where the claims do not line up
    with its batches). A forward that waited for the device (a read-back: counts read with
    tolist to plan a grid, honest_builtin/s64f_01) cannot run ahead, so the device idles while
    the harness's path runs between forwards (the launch recorder's bookkeeping, the next
    spin and flush): outside the events, in the worker's clock, hidden in the reference's by
    its queued work (an H100: 3.37 ms against 2.12 ms of events, session 67). The device can
    idle that way no longer than the host ran; work on another stream is device time, not
    the host's, and past it still shows. Not the excess over the reference's host time: the
    reference's is as long, only hidden."""
    n = len(series.times_s)
    if not series.host_s or len(series.host_s) != n * batch:
        return series
    host = [sum(series.host_s[b * batch:(b + 1) * batch]) for b in range(n)]
    return dataclasses.replace(series, times_s=[t - h for t, h in zip(series.times_s, host, strict=True)])


def _by_kind(series: stopwatch.Series, batch: int, groups: list[list[int]] | None,
             less: stopwatch.Series | None = None) -> list[tuple] | None:
    """Per kind of timed input: (median raw time, net time per forward against the series' own
    nulls, the events of its batches, the share of the net that was the host's between
    forwards: against `less`), or None where the events do not line up with batches."""
    n = len(series.times_s)
    if not groups or len(groups) < 2 or len(series.batch_sets) != n or len(series.events_s) != n * batch:
        return None
    kind = {s: g for g, ids in enumerate(groups) for s in ids}
    nets = stopwatch.group_seconds(series, None, groups)
    bare = stopwatch.group_seconds(less or series, None, groups)
    out = []
    for g, (net, net_less) in enumerate(zip(nets, bare, strict=True)):
        mine = [b for b in range(n) if kind.get(series.batch_sets[b]) == g]
        raw = statistics.median(series.times_s[b] for b in mine) / batch if mine else None
        host = max(net - net_less, 0.0) if net is not None and net_less is not None else 0.0
        out.append((raw, net, [e for b in mine for e in series.events_s[b * batch:(b + 1) * batch]], host))
    return out
