"""The correctness phase of an evaluation (evaluator.pipeline): the candidate child runs the
trials and the knock-out runs, one input set per command, in an order only the worker knows;
the worker judges what comes back (evaluator.judge) and keeps the trials' facts the later
gates and the timing phase read (launches, programs, own work, provenance).

`run` is the pipeline's `_Run` (its evaluator, config, plan, locks, deadline and details).
"""
from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from evaluator import feedback as F
from evaluator import (
    fresh_forwards,
    gates,
    judge,
    judge_timed,
    noise_floor,
    reference_phase,
    timed_work,
    timing,
)
from evaluator.device_lost import DeviceLost, claims
from evaluator.fresh_forwards import FRESH_SET
from evaluator.reference import (
    ReferenceOutputs,
    by_id,
    plain_trials,
    shared_transforms,
    split_outputs,
    trial_order,
)
from evaluator.reference_phase import KNOCKOUT_SET, TORCH_KNOCKOUT_SET
from evaluator.sandbox import Child, ChildFailure

if TYPE_CHECKING:
    from evaluator.pipeline import _Run


def set_output_bytes(ref: ReferenceOutputs) -> int:
    """What one input set's reference outputs weigh (the bound on a candidate's per set)."""
    return sum(t.numel() * t.element_size() for t in ref.outputs[0]) if ref.outputs else 0


def check(run: _Run, child: Child, ref: ReferenceOutputs) -> judge.Outcome | None:
    """The trials and the knock-out run, in one command, in an order only the worker knows
    (the knock-out inputs are fresh, so neither content nor position gives it away)."""
    n = len(run.plan.trials)
    # the first trial's transform comes again, where the plan repeats one: the CPU child holds
    # each autotune config to each transform before a trial of it (evaluator.autotune_pins)
    # and every scaled or spiked trial comes right after a forward on the problem's own inputs
    order = trial_order(n, reference_phase.knockout_ids(run), firsts=shared_transforms(run.plan), plain=plain_trials(run.plan))
    # each scaled or spiked trial again as the module's first large input, in a fork (CPU only)
    fresh = {} if run.ev.device != "cpu" or run.depth_run else fresh_forwards.points(order, n, plain_trials(run.plan))
    results, tensors = [], []
    # the reference's outputs per set bound the candidate's (checked in the child, and on
    # the channel should a tampered child send more anyway)
    run.bound = None if any(t["modified"] for t in ref.trials) else set_output_bytes(ref) + (1 << 20)
    # each trial is judged while the child runs the next one (the worker's CPU and the
    # child's device overlap); the verdict is still the first mismatch in plan order
    pool = ThreadPoolExecutor(1, thread_name_prefix="krl-judge") if run.ev.judge_device is None else None
    futures: dict[int, Future] = {}
    try:
        try:
            outcome = _run_trials(run, child, ref, order, n, pool, futures, results, tensors, fresh)
        except DeviceLost:  # the job runs again in a fresh child, but not over a wrong answer given
            outcome = answered_wrong(run, ref, results, tensors, futures, n)
            if outcome is None:
                raise
        if outcome is not None:
            return outcome
        prejudged = {i: f.result() for i, f in futures.items()}
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    stopped = next((r for r in results if r.get("problem")), None)
    if stopped is not None:  # the sets run in a shuffled order: name the one that stopped
        sid = int(stopped["id"])
        where = f"Trial {sid} (inputs {run.plan.trials[sid][1]})" if sid < n else \
            _fresh_name(run, sid - FRESH_SET) if sid >= FRESH_SET else "A checking run"
        return judge.Outcome("incorrect", f"{where} stopped " + F.own_text(str(stopped["problem"]), 400),
                             details={"trial": sid if sid < n else None})
    run.details["child_stages"] = timing.stage_sums(results)
    t = time.monotonic()
    with run.judging():
        outcome = _judge_collected(run, results, tensors, ref, prejudged)
        outcome = outcome or _judge_fresh(run, results, tensors, ref)
    run.worker_seconds["judge"] = round(time.monotonic() - t, 3)
    return outcome


def answered_wrong(run: _Run, ref: ReferenceOutputs, results: list, tensors: list, futures: dict,
                   n: int) -> judge.Outcome | None:
    """The first wrong answer, in plan order, among the trials a child ran before a knock-out
    lost its device (evaluator.device_lost), or None. The trials are judged after the last of
    them, so a fault at the full knock-out wiped every trial before it and the job ran again on
    a fresh order: a forward that knew it had just answered wrong (a gamble on the order lost)
    faulted at the next knock-out to try again (red team s67G). A fault undoes nothing already
    answered: each trial that ran is judged as the collected trials would be (`_prejudge`)."""
    outs, back, _ = split_outputs(results, tensors)
    judged = {}
    for t, o, b in zip(results, outs, back):
        i = int(t["id"])
        if i < n:
            judged[i] = futures[i].result() if i in futures else _prejudge(run, i, t, o, b, ref)
    return next((judged[i][0] for i in sorted(judged) if judged[i][0] is not None), None)


def _prejudge(run: _Run, i: int, t: dict, outs: list, back: list, ref: ReferenceOutputs) -> tuple:
    started = time.monotonic()
    facts = {"precision": "strict"}
    outcome = judge.judge_trial(i, t, outs, back, ref, list(run.plan.trials), run.cfg, run.tolerance, facts)
    run.worker_seconds["prejudge"] = round(run.worker_seconds.get("prejudge", 0.0)
                                           + time.monotonic() - started, 3)
    return outcome, facts["precision"]


def run_header(run: _Run, ref: ReferenceOutputs, set_id: int, last: bool, checked_left: int = 0,
               fresh_ids: list | tuple = ()) -> dict:
    """The `run` command of one input set (the knock-out's runs it with launches skipped).
    `checked_left`: the trials the child runs after this one (where the CPU child runs an
    autotune config pinned before one of them: evaluator.autotune_pins.schedule). `fresh_ids`:
    the large trials the CPU child runs before it, each in a fork (evaluator.fresh_forwards)."""
    per_set = set_output_bytes(ref)
    return {"op": "run", "ids": [set_id], "last": last, "checked_left": checked_left, "fresh_ids": list(fresh_ids),
            "knockout_ids": [KNOCKOUT_SET],
            "torch_knockout_ids": [TORCH_KNOCKOUT_SET] if run.plan.torch_knockout else [],
            "provenance": True, "return_inputs": any(t["modified"] for t in ref.trials),
            "reference_bytes": per_set, "reference_outputs": len(ref.outputs[0]) if ref.outputs else None,
            "max_output_bytes": run.cfg.correctness.max_output_bytes,
            "poison_bytes": 2 * ref.nbytes // max(len(run.plan.trials), 1),
            # every autotune config on every trial transform (autotune_pins.cover): the evaluation's
            # trials, not a depth run's one trial at a declared size (each config there is a whole
            # interpreted forward at up to millions of elements; the trial's own config is judged)
            "cover_configs": not run.depth_run,
            "agree_floor": agree_floors(ref, set_id)}


def agree_floors(ref: ReferenceOutputs, set_id: int) -> list:
    """Per output of set `set_id`, what two autotune configs' outputs may differ by in norm
    whatever their size (autotune_pins._agree): twice the worker's own floor there, NOISE_FLOOR
    times the reference's noise on these inputs (each config within it of the reference), or
    None where no noise was measured (a knock-out's set, an in-place reference)."""
    noise = ref.trials[set_id].get("noise") if 0 <= set_id < len(ref.trials) else None
    pairs = [noise_floor.noise_pair(v) for v in noise] if isinstance(noise, list) else []
    return [2 * noise_floor.NOISE_FLOOR * p[0] if p is not None else None for p in pairs]


def _run_trials(run: _Run, child: Child, ref: ReferenceOutputs, order: list[int], n: int,
                pool: ThreadPoolExecutor | None, futures: dict, results: list, tensors: list,
                fresh: dict | None = None) -> judge.Outcome | None:
    for at, set_id in enumerate(order):  # one set per command: one set's GiBs in flight at a time
        later = sum(1 for i in order[at + 1:] if i < n)
        with run.holding(run.ev.device_lock.shared()):
            # on the CPU a command may run into the time `pinned_back` can still give back; not a
            # depth trial's, whose time out is a retry smaller (depth_phase) and whose child's CPU
            # budget is four of its own limits (a command run into the grace died of SIGXCPU)
            grace = run.pinned_grace if run.ev.device == "cpu" and not run.depth_run else 0.0
            again = (fresh or {}).get(set_id, ())  # the large trials run before it in forks: theirs too
            head = run_header(run, ref, set_id, set_id == order[-1], later, again)
            reply, more = child.request(head, run.left() + grace,
                                        max_bytes=run.bound and run.bound * (1 + len(again)))
        # a knock-out's fault left the device unusable: the job again in a fresh child, where it raised
        lost = [t for t in reply.get("trials") or [reply] if claims(t, run.ev.device)]
        if lost and set_id >= n:  # (its command's harness work after the forward met the error: its reply's)
            raise DeviceLost(set_id, str(lost[0].get("error") or lost[0].get("message")))
        if reply.get("op") == "error":
            return judge.from_error(reply, "correctness", run.sanitize)
        if not run.depth_run:
            run.pinned_back(reply.get("autotune_pinned_s"))
        if run.left() < 0:  # past what the emulation's time bought back: the limit's own timeout
            raise ChildFailure("timeout", "the evaluation's time ran out")
        if reply.get("tampered"):
            return judge.Outcome("hack", "Rejected: forward modified the evaluator's process.",
                                 hacks=["monkey_patch"])
        results.extend(reply["trials"])
        if isinstance(reply.get("kernel_qualnames"), dict):  # kernel_identity: a name defined twice
            run.qualnames.update(reply["kernel_qualnames"])
        tensors.extend(more)
        # a forward over a host_compute limit has its verdict: the trials left would only
        # repeat the host's work under the watch (minutes of Python GEMM on a slow CPU)
        over = judge.judge_host_limits([t for t in reply["trials"] if int(t["id"]) < n],
                                       run.cfg.policy.max_host_reads, run.cfg.policy.max_host_made)
        if over is not None:
            return over
        if pool is not None:
            outs, back, _ = split_outputs(reply["trials"], more)
            for t, o, b in zip(reply["trials"], outs, back):
                if int(t["id"]) < n and not t.get("problem") and not t.get("error"):
                    futures[int(t["id"])] = pool.submit(_prejudge, run, int(t["id"]), t, o, b, ref)
        if any(t.get("problem") for t in reply["trials"]):
            break
    return None


def _judge_collected(run: _Run, results: list[dict], tensors: list, ref: ReferenceOutputs,
                     prejudged: dict | None = None) -> judge.Outcome | None:
    trials, outputs, knocks = by_id(results, tensors, len(run.plan.trials), (KNOCKOUT_SET, TORCH_KNOCKOUT_SET))
    run.ref_in_place = any(t["modified"] for t in ref.trials)
    run.trial_programs, run.trial_most = judge_timed.least_programs(trials), judge_timed.most_programs(trials)
    run.trial_own_work = timed_work.least_own_work(trials)
    run.trial_variants = judge_timed.trial_variants(trials)
    knock = knocks.get(KNOCKOUT_SET)
    # a knock-out that faulted in an earlier child raised (evaluator.device_lost)
    run.knockout_raised = run.knockout_raised or KNOCKOUT_SET in run.lost
    if TORCH_KNOCKOUT_SET in run.lost:
        knocks[TORCH_KNOCKOUT_SET] = ({"trials": [{"error": run.lost[TORCH_KNOCKOUT_SET]}]}, [])
    run.details["launches"] = [sorted({name for _, name in t["launches"]}) for t in trials]
    run.details["trials"] = [{"inputs": d, **({"overflow": True} if k < len(ref.trials) and ref.trials[k].get(
        "overflow") else {})} for k, (_, d) in enumerate(run.plan.trials)]
    outcome = judge.judge_trials({"trials": trials}, outputs, ref, list(run.plan.trials), run.kernels,
                                 run.module, run.cfg, run.tolerance, run.facts, run.ev.device,
                                 device_branch=run.device_branch, prejudged=prejudged)
    if outcome is None and knock is not None:
        outcome = judge.judge_knockout(*knock, ref, run.cfg, run.tolerance)
        # no result to compare (raised, or another shape, dtype or count): the kernels only
        # decide whether forward gives an answer, not what it is (a knock-out run that
        # returned y.reshape(-1) escaped the rule for one that raised)
        t = knock[0]["trials"][0]
        run.knockout_raised = bool(t.get("error") or t.get("problem")
                                   or judge._shape_problem(t, ref.trials[0]))
    reports = [t["provenance"] for t in trials if isinstance(t.get("provenance"), dict)]
    gates.answer_kind(ref, run.cfg, run.tolerance)  # once per cached reference: read by the two below
    run.thin_return, run.carried, run.constant = gates.trial_evidence(reports, run.module, ref)
    run.details.update({"constant_answer": True} if gates.fixed_answer(ref) else {})  # only correctness is paid
    run.own_names = gates.own_kernels(trials, run.module)
    # how close the forward came to the host_compute limits (the most of any checked forward)
    run.details["host_values"] = {k: max((r.get(k) for r in reports if type(r.get(k)) is int), default=0)
                                  for k in ("host_reads", "host_made", "launch_ints")}
    if outcome is None:
        outcome = judge.judge_provenance(trials, run.cfg.policy.name == "strict", run.knockout_raised,
                                         run.cfg.policy.max_host_reads, run.cfg.policy.max_host_made)
    if outcome is None and run.plan.torch_knockout is not None:
        outcome = judge.judge_torch_knockout(knocks.get(TORCH_KNOCKOUT_SET), ref, run.cfg, run.tolerance)
    return outcome


def _judge_fresh(run: _Run, results: list[dict], tensors: list, ref: ReferenceOutputs) -> judge.Outcome | None:
    """The large trials run again as the module's first large input (evaluator.fresh_forwards),
    each judged as its trial is, the first wrong one in plan order; None where all agree."""
    outs, back, _ = split_outputs(results, tensors)
    fresh = sorted(((int(t["id"]) - FRESH_SET, t, o, b) for t, o, b in zip(results, outs, back)
                    if int(t["id"]) >= FRESH_SET), key=lambda f: f[0])
    for i, t, o, b in fresh:
        outcome = judge.judge_trial(i, t, o, b, ref, list(run.plan.trials), run.cfg, run.tolerance, {})
        if outcome is not None:
            return judge.Outcome(outcome.status, f"{_fresh_name(run, i)}: " + outcome.feedback,
                                 details={**(outcome.details or {}), "fresh": True})
    return None


def _fresh_name(run: _Run, i: int) -> str:
    return (f"Trial {i} (inputs {run.plan.trials[i][1]}) run as the first large input of a module that had "
            "seen none (your forward's answer changed with what earlier forwards saw)")
