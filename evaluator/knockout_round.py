"""Which of forward's own kernels its result needs: the single-kernel knock-out round
(evaluator.gates says where it runs and what a decoy costs).

Each kernel is knocked out alone REPEATS times, and CHECKS normal forwards are mixed in, in
an order drawn from the OS's randomness; every one of these forwards gets its own input set,
drawn from a seed drawn the same way, whose outputs the trusted reference child computes for
this round alone (one set at a time: reference, candidate, judged, released, so the worker
and both children hold one set's tensors at a time at any problem size). A knock-out must
look to the candidate like any checked forward, else it spoils exactly the knock-outs and a
padding kernel looks needed (red team, session 24: they ran after every trial, at call
numbers it could count, and all reused the knock-out run's inputs, which a forward that
remembered its inputs spotted). A normal forward here is judged as a trial is: wrong is
`incorrect`. A kernel is needed only where its result is wrong in each of its knock-outs,
and where one of them returned wrong values or the kernel's writes reach a checked forward's
result (evaluator.carried): a knock-out that only raised proves that forward looked at the
kernel's output, not that its result needs it (red team, session 24: a padding pass whose
index a gather read and forward threw away raised without it, and bought coverage 0.67 for
a lazy epilogue's 0.5).

A candidate that cannot tell them apart and spoils the forwards it guesses are a padding
kernel's knock-outs survives only by spoiling exactly those and no normal one: at best (it
recognises every other kernel's knock-out by its missing output) 1 / C(REPEATS + CHECKS,
REPEATS) = 1/35; spoiling fewer leaves one knock-out right (a decoy), more hits a check.
Each forward costs a fresh draw and a reference forward too: a round is REPEATS per kernel
plus CHECKS forwards (7 for one kernel, 10 for two), run only where gates.knockouts_due, and
one more where two or more kernels came out unneeded: all of them knocked out at once
(`_jointly`: each unneeded alone is not all unneeded together, red team s65e).
"""
from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from evaluator import correctness_phase, judge, kernel_identity, reference_phase
from evaluator.device_lost import JOINT, DeviceLost, claims
from evaluator.reference import ReferenceOutputs, split_outputs

REPEATS = 3  # knock-outs of each kernel; it is needed only where each of them comes out wrong
CHECKS = 4  # normal forwards among them, judged against the reference
ROUND_SETS = 3000  # the round's input-set ids (the trials are 0.., the knock-out runs 1000..)
_CHECK = "a checking run after the trials (fresh inputs of the problem's own distribution)"


def round_entries(names: list[str], rng: Any = None, times: dict | None = None) -> list[str | None]:
    """The round's forwards in their order: a kernel's name (knocked out alone, `times[name]`
    times, else REPEATS) or None (a normal forward), shuffled by the OS's randomness."""
    entries: list[str | None] = [n for n in names for _ in range((times or {}).get(n, REPEATS))] + [None] * CHECKS
    (rng or secrets.SystemRandom()).shuffle(entries)
    return entries


def decoy_kernels(run: Any, child: Any, ref: ReferenceOutputs, names: list[str],
                  shared: list[str], max_kernels: int) -> tuple[list[str], judge.Outcome | None]:
    """(decoys, outcome) of the round over `names` (the first `max_kernels`; `shared`: names
    the file defines twice, which count as decoys unasked for coverage, as do the names past
    `max_kernels`); a wrong normal forward or a tampered reply ends it with that outcome.

    A name is knocked out per kernel where the trials launched it as two or more identities
    (evaluator.kernel_identity, `run.qualnames`: two classes' `fix`, one `def` under two sets
    of constexprs), and as one group (a decoy for coverage is a name): what the round finds
    unneeded is `run.unneeded`, which the dry model skips
    (dry_phase `_skipped`). Skipping every decoy unasked left a capped in-place ReLU named
    twice (`Main.fix`, `Spare.fix`) unmodelled and its ok standing (red team s65e)."""
    name_of = kernel_identity.asked(names[:max_kernels], getattr(run, "qualnames", {}))
    tried = list(name_of)  # names, and the qualified names of a name's kernels
    # each knock-out that lost a child's device raised, and is not run again; the kernel's
    # others still are (evaluator.device_lost.Faults: one fault is one knock-out)
    times = {n: run.lost.left(n) for n in tried}
    asked = [n for n in tried if times[n] > 0]
    decoys = list(names[max_kernels:]) + [n for n in names[:max_kernels] if n in shared]
    run.unneeded = list(names[max_kernels:])
    if not tried:
        return decoys, None
    entries = round_entries(asked, times=times)
    # one set more than the round's forwards: the found decoys' joint knock-out (`_jointly`)
    sets = [{"id": ROUND_SETS + j, "seed": secrets.randbits(62), "transform": "base"} for j in range(len(entries) + 1)]
    lost = None
    with run.ev.pool.reference() as ref_child:
        try:
            found, outcome = _in_round(run, child, ref, ref_child, sets, entries, tried, name_of)
        except DeviceLost as exc:  # the candidate child's: raised past the reference's, whose sandbox stays
            lost = exc
    if lost is not None:
        raise lost
    return decoys + [n for n in found if n not in decoys and n in names], outcome


def _in_round(run: Any, child: Any, ref: ReferenceOutputs, ref_child: Any, sets: list[dict],
              entries: list[str | None], tried: list[str], name_of: dict) -> tuple[list[str], judge.Outcome | None]:
    """The round's forwards over `sets` in the order of `entries`: (the entries of `tried` found
    unneeded, None), or ([], an outcome that ends the evaluation). `name_of`: entry -> kernel name."""
    right, wrong = set(), set()  # kernels with a knock-out right / one that returned wrong values
    knocked: dict[str, set] = {}  # entry -> what its right knock-outs skipped (`_skipped_as`)
    made, _ = reference_phase.request(run, ref_child, {"op": "prepare", "problem": run.problem.source,
                                                       "sizes": run.sizes, "sets": sets, "reset_sets": True})
    reference_phase.request(run, ref_child, {"op": "model", "init_seed": run.plan.init_seed, "init": run.init_on})
    with run.holding(run.ev.device_lock.shared()):
        drawn, _ = child.request({"op": "prepare", "problem": run.problem.source, "sizes": run.sizes,
                                  "sets": sets}, run.left())
    if drawn.get("op") == "error" or any(drawn["sets"][k]["digest"] != v["digest"]
                                         for k, v in made["sets"].items()):
        return [], judge.Outcome("hack", "Rejected: after your module was imported, the problem's "
                                 "inputs drawn in its process differ from the evaluator's draw "
                                 "from the same seed.", hacks=["monkey_patch"])
    for s, name in zip(sets, entries):
        view = _reference_view(run, ref, ref_child, s)
        if view is None:
            continue  # the reference's own outputs cannot be judged there: no evidence
        skipped: list = []
        outcome, result = _one(run, child, ref, view, s["id"], name, skipped)
        if outcome is not None:
            return [], outcome
        if name is not None and result in ("right", "wrong"):
            (right if result == "right" else wrong).add(name)
        if name is not None and result == "right":
            knocked.setdefault(name, set()).update(skipped)
    needed = [n for n in tried if n not in right and (n in wrong or name_of[n] in run.carried)]
    found = [n for n in tried if n not in needed]
    run.unneeded += _skipped_as(found, knocked)
    # a joint knock-out that lost a child's device raised: not right (evaluator.device_lost)
    run.decoys_joint = len(found) < 2 or (JOINT not in run.lost and _jointly(run, child, ref, ref_child,
                                                                              sets[-1], found))
    return found, None


def _jointly(run: Any, child: Any, ref: ReferenceOutputs, ref_child: Any, s: dict, found: list[str]) -> bool:
    """Whether the result is right with every kernel in `found` knocked out at once (each was,
    alone). Two kernels storing the same output are each unneeded alone and needed together:
    the dry model (evaluator.dry_phase `_skipped`) stored nothing for either, and two capped
    ReLU grids so paired kept an ok at 0.503 (red team s65e); dry_phase now refuses where this
    is False. A knock-out that raised is not right; where the reference's own outputs cannot
    be judged (no evidence, nothing the candidate chose) the single knock-outs stand."""
    view = _reference_view(run, ref, ref_child, s)
    if view is None:
        return True
    outcome, result = _one(run, child, ref, view, s["id"], found)
    return outcome is None and result == "right"


def _reference_view(run: Any, ref: ReferenceOutputs, ref_child: Any, s: dict) -> ReferenceOutputs | None:
    """The reference's outputs for set `s`, as a one-trial ReferenceOutputs judged with the
    evaluation's base facts (atol scale, precision), or None where they cannot be used."""
    header = reference_phase.run_command(run, s["id"], last=True)
    reply, tensors = reference_phase.request(run, ref_child, header)
    t = reply["trials"][0]
    if t.get("problem"):
        return None
    outs, back, tf32 = split_outputs(reply["trials"], tensors)
    base = judge.base_facts(ref, list(run.plan.trials))
    return dataclasses.replace(ref, trials=[{**t, "transform": "base"}], outputs=outs, inputs_after=back,
                               tf32=tf32, knockout=outs[0], torch_knockout=[], base=base, scales=None, plan=None)


def _skipped_as(found: list[str], knocked: dict[str, set]) -> list[str]:
    """What the dry model skips (dry_phase `_skipped`) of the entries `found` unneeded, from what
    their right knock-outs skipped (`knocked`, the child's "knocked"): a right knock-out that
    skipped no launch is no evidence (a config's identity knocked out in a forward running
    another config: each forward runs one config per autotuned key, rotating as trials do); an
    autotuned kernel asked by name is skipped only under the configs it was knocked out under
    (evaluator.dry_configs.tag), the others modelled (red team s68b: a capped config's identity,
    right once with nothing skipped, hid its capped in-place update at both sizes, ok at
    1.0013); an identity is one config's already, and a plain kernel's entry is itself."""
    out: list[str] = []
    for entry in found:
        skipped = knocked.get(entry) or set()
        if not skipped:  # nothing knocked out: no finding
            continue
        if "~" in entry or "" in skipped:  # an identity, or a name with a plain kernel (skipped by name)
            out.append(entry)
        else:  # an autotuned kernel's name: the configs it was knocked out under
            out += sorted(t for t in skipped if t not in out)
    return out


def _one(run: Any, child: Any, ref: ReferenceOutputs, view: ReferenceOutputs, set_id: int,
         name: str | list[str] | None, skipped: list | None = None) -> tuple[judge.Outcome | None, str]:
    """One forward of the round, judged: (an outcome that ends the evaluation, what a
    knock-out's result was without its kernel: "right", "wrong" values, or "raised" where
    there were none to compare: an error, a problem, another shape). A knock-out's skipped
    launches (the child's "knocked": evaluator.dry_configs.tag, or "") go into `skipped`."""
    header = {**correctness_phase.run_header(run, ref, set_id, True), "knockout_ids": [set_id] if name else [],
              "torch_knockout_ids": [], "probe": True}  # picks configs as a trial (autotune_cpu)
    if name is not None:
        header["kernel_knockout"] = name
    with run.holding(run.ev.device_lock.shared()):
        reply, more = child.request(header, run.left(), max_bytes=run.bound)
    if reply.get("tampered"):
        return judge.Outcome("hack", "Rejected: forward modified the evaluator's process.",
                             hacks=["monkey_patch"]), False
    if name is not None:
        t = reply["trials"][0] if reply.get("op") != "error" else {"error": reply.get("message") or True,
                                                                  "device_lost": reply.get("device_lost")}
        if claims(t, run.ev.device):  # it faulted on the GPU: the job again in a fresh child, where it raised
            raise DeviceLost(name if isinstance(name, str) else JOINT, str(t.get("error")))
        if skipped is not None:
            skipped += [str(k) for k in t.get("knocked") or () if isinstance(k, str)][:256]
        if t.get("error") or t.get("problem") or judge._shape_problem(t, view.trials[0]):
            return None, "raised"
        right = judge.judge_knockout(reply, more, view, run.cfg, run.tolerance) is not None
        return None, "right" if right else "wrong"
    if reply.get("op") == "error":
        return judge.from_error(reply, "correctness", run.sanitize), "raised"
    t = reply["trials"][0]
    outs, back, _ = split_outputs(reply["trials"], more)
    with run.judging():
        outcome = judge.judge_trial(0, t, outs[0], back[0], view, [(0, "base")], run.cfg, run.tolerance,
                                    {"precision": "strict"})
    if outcome is None:  # held to the trials' host limits (and, strict, PyTorch's work) as a trial is:
        # a forward that hands the host its work only after its trials were over (red team s29)
        outcome = judge.judge_provenance([t], run.cfg.policy.name == "strict", False,
                                         run.cfg.policy.max_host_reads, run.cfg.policy.max_host_made)
    if outcome is not None:  # named as a checking run: a trial's number would point at the wrong inputs
        outcome.feedback = outcome.feedback.replace("trial 0 (inputs base)", _CHECK).replace(
            "Trial 0 (inputs base)", _CHECK[0].upper() + _CHECK[1:])
        outcome.details = {**outcome.details, "trial": None, "check_after_trials": True}
    return outcome, "right"
