"""The timed runs' judgments (evaluator.timing_phase, timed_steps, stopwatch): how many programs
each kernel may run in a timed forward against the checked trials' counts, whether a timed
forward took another path than the trials, whether the inputs a timed forward was handed came
back changed, and the CUDA-event cross-check of the worker's clock (side streams, forged events).
The checked trials' own judgments stay in evaluator.judge.
"""
from __future__ import annotations

import statistics
from collections.abc import Mapping

from common.config.evaluator import EvaluatorConfig
from evaluator import feedback as F
from evaluator.judge import Outcome


def least_programs(trials: list[dict]) -> dict[str, int]:
    """Per own kernel launched in every checked trial, the fewest programs any trial gave it."""
    sigs = [t.get("own_programs") for t in trials]
    if not sigs or not all(isinstance(s, dict) for s in sigs):
        return {}
    names = set.intersection(*(set(s) for s in sigs))
    return {k: min(int(s[k]) for s in sigs) for k in names}


def most_programs(trials: list[dict]) -> dict[str, int]:
    """Per own kernel any checked trial launched, the most programs a timed run may give it:
    the most a trial gave it, plus slack where its grid can follow the data. A grid follows the
    data only through values the forward read back to the host (MoE alignment: each expert's
    tokens padded to the block, the count of blocks read with tolist), and on a fresh timed
    draw such a grid ran a program more than any of the five trials (two MoE-align files,
    H100, session 67). So: the trials' own spread, and where a trial read values back, at
    least 1/64 of the most; a forward that read nothing back gets the spread alone, 0 for a
    grid the shapes fix (the flag kernel padded in timed runs only, red team session 24)."""
    counts: dict[str, list[int]] = {}
    for s in (t.get("own_programs") for t in trials):
        for k, v in (s.items() if isinstance(s, dict) else ()):
            counts.setdefault(str(k), []).append(int(v))
    read_back = any(isinstance(t.get("provenance"), dict) and type(t["provenance"].get("host_reads")) is int
                    and t["provenance"]["host_reads"] > 0 for t in trials)
    return {k: max(v) + max(max(v) - min(v), max(v) // 64 if read_back else 0) for k, v in counts.items()}


def trial_variants(trials: list[dict]) -> set[str] | None:
    """Every `kernel(constexprs)` variant of its own kernels the checked trials launched."""
    lists = [t.get("own_variants") for t in trials]
    if not lists or not all(isinstance(v, list) for v in lists):
        return None
    return {str(v) for vs in lists for v in vs}


def judge_timed_path(timed: Mapping[int, dict], trial_least: Mapping[str, int],
                     timed_variants: Mapping[int, list | None] | None = None,
                     trial_seen: set[str] | None = None,
                     trial_most: Mapping[str, int] | None = None) -> Outcome | None:
    """A timed run must do the Triton work the checked trials did on inputs of the same
    shapes: each own kernel every trial launched, at least half the programs the fewest
    trial gave it, and no kernel a trial launched more programs than `trial_most` allows (the
    most a trial gave it, and where the trials' own counts differed, that much more:
    `most_programs`): the result needs a kernel for what the checked
    forwards launched of it, and the same kernel launched again over a scratch buffer in the
    timed runs alone was live coverage (red team, session 24); and of the kernels the trials
    launched, only variants (constexpr values) they ran. A kernel the trials never launched
    only adds time (it was never knocked out, so its time is no one's coverage:
    gates.live_coverage). Otherwise forward took another path when timed."""
    def other_path(run: int, what: str) -> Outcome:
        return Outcome("hack", f"Rejected: timed forward {run} {what}: forward takes another path "
                       "when it is timed.", hacks=["timed_path_differs"])

    seen = trial_seen or set()
    names = {v.split("(", 1)[0] for v in seen}
    for run, variants in sorted((timed_variants or {}).items()):
        new = sorted(v for v in map(str, variants or ()) if v not in seen and v.split("(", 1)[0] in names)
        if new:
            return other_path(run, f"launched {F.untrusted(new[0][:200])}, a variant of your kernel no checked "
                              "forward launched")
    for run in sorted(timed):
        for name, least in sorted(trial_least.items()):
            got = int(timed[run].get(name, 0))
            if least > 0 and 2 * got < least:
                return other_path(run, f"ran {got} program(s) of your kernel {F.untrusted(str(name)[:80])}, the checked "
                                  f"forwards at least {least}")
        for name, most in sorted((trial_most or {}).items()):
            got = int(timed[run].get(name, 0))
            if got > most:
                return other_path(run, f"ran {got} program(s) of your kernel {F.untrusted(str(name)[:80])}, the checked "
                                  f"forwards at most {most}")
    return None


def judge_input_checksums(cand: Mapping[int, list | None], ref: Mapping[int, list | None]) -> Outcome | None:
    """Every timed run's inputs after the forward, by checksum, against the reference's on the
    same draw (a reference that leaves its inputs alone). The candidate's checksums are its
    claim; the reveals that carry inputs check the claim (`forged_timing` when false)."""
    for run in sorted(cand):
        if run in ref and ref[run] is not None and cand[run] != ref[run]:
            return Outcome("hack", f"Rejected: while being timed, forward modified its inputs in place "
                           f"(timed run {run}); the reference leaves them as they were.",
                           hacks=["modified_inputs"])
    return None


def judge_events(cand_total_s: float, cand_net_s: float, cand_events: list[float], ref_net_s: float,
                 ref_events: list[float], cfg: EvaluatorConfig, cand_host_s: float = 0.0) -> Outcome | None:
    """Cross-check the child's CUDA events against the worker's clock (GPU only). Seconds per forward:
    `cand_total_s` the raw round trip share, the nets after the null batches, `cand_host_s` the share
    of the candidate's net its host spent between forwards (timing_phase._less_host)."""
    if not cand_events or not ref_events:
        return None
    ev_c, ev_r = statistics.median(cand_events), statistics.median(ref_events)
    if ev_c > 1.1 * cand_total_s + 50e-6:
        return Outcome("hack", "Rejected: the process running your kernel reported more device time "
                       "than the evaluator's clock measured around it.", hacks=["forged_timing"])
    host = max(cand_host_s, 0.0)
    gap_c, gap_r = cand_net_s - host - ev_c, ref_net_s - ev_r
    if gap_c > cfg.timing.side_stream_min_gap_s and gap_c > 0.5 * ev_c and gap_c > 2 * max(gap_r, 0.0):
        return Outcome("hack", "Rejected: forward returns before its work is done on the timed stream (evaluator "
                       f"clock {1e3 * cand_net_s:.3g} ms, {1e3 * host:.3g} ms of it the host between forwards, vs "
                       f"CUDA events {1e3 * ev_c:.3g} ms): work escaped onto another stream.", hacks=["side_stream"])
    return None
