"""Coverage at the declared sizes: a CPU ok also needs the forward's launches to store, at the
sizes the GPU runs, every element of each storage they store all of at the CPU's.

The depth trials (evaluator.depth_phase) run a candidate where the interpreter can finish;
a kernel whose coverage a constant of its own bounds past every trial (132 programs taking
eight tiles each, a split-K stage taking two (tile, K chunk) items per program, a grid capped
at 4096 one-block programs: session 58's s58f/s58i files) is right at each of them and leaves
most of the GPU's output unwritten. So after the depth trials (before the output-growing
joint trial, depth_phase `_dry`), the dry launch model
(evaluator.dry_launch) runs the candidate's forward twice, each in a fresh candidate child, at
the CPU's sizes and at the declared ones (`depth_phase._targets`: the GPU's own sizes first),
on meta tensors, every launch's programs run with memory replaced. A storage the launches
stored every element of at the CPU's sizes and not at the declared ones is refused, `incorrect`,
with both numbers named: on the GPU the rest is whatever the memory held (or the zeros a
split-K stage's partial sums started as).

Only a storage stored whole at the CPU's sizes counts, so a triangular output, a diagonal, a
padded buffer (partly stored at every size) are never judged, and the union of every launch
of the forward is compared (a chunked launch, a second launch for a tail), but for constant
writers and kernels the knock-out round found the result does not need alone and together
(`_skipped`), which store nothing in the model (a decoy zero fill made a capped output whole:
s61d). A returned tensor is also
judged by its own elements (`output i`: a view of a longer storage). A forward that observes
what a meta tensor cannot answer as the GPU would (text, an address, a value read to the host:
evaluator.dry_tells) runs again in another fresh child on the problem's CPU draw at the same
sizes (`_modelled`), its launches recorded and not run; where that forward reads back what one
of them may have stored, raises, or its child ends, the model cannot run it as the GPU does and
the candidate is refused (`_unanswered`: `timeout`, or `runtime_error` where it raised): a
give-up the candidate's code can cause is never a kept ok (red team s61d's host NaN guard, s62a).
A launch the model cannot run (its stores a loaded value steers, an op it does not know)
stores nothing there, the rest judged (dry_launch.stored; s65e). Where a store lane is the
loaded data's to decide (evaluator.dry_taint), both sizes are modelled again on the problem's
CPU draw, each launch loading its storages' values as made where the GPU's launch loads the
same (`_grounded`, evaluator.dry_values): on the model's zeros `(pid < 4096) ^ (x != x)` stored
no lane for certain at either size (red team s66c, ok at 1.0040); so are they where a launch's
branch or loop test was the data's on the zeros (`branched`, evaluator.dry_tests: `if
tl.load(flag) == 1:` choosing a capped store was not run, red team s68d). What has no model otherwise (more than
`dry_command.MAX_LAUNCHES` launches, a model past `depth.dry_s`) keeps the verdict, said so in
`details["dry"]`; a problem whose inputs are past `dry_tells.REAL_ELEMENTS` where the real forward
was needed is refused (session 65: its give-up was the candidate's to cause by any host read). Not judged (docs/threat_model.md): a reduction cut short (the model does
not compare loads), a storage finished by torch after a kernel capped by a constant (it would
be refused: no honest file is known to do so), a kernel the model cannot run within its time
at the declared sizes (a cap past the model's pace). What one kernel updated in place (loaded,
then stored: `_updated_short`) is judged per kernel: the union of stores was whole where a
capped kernel finished in place what a needed full-grid copy wrote (red team s61d); so is what
one kernel stored over earlier launches' stores, by its share at each size (`_overwritten_short`:
a capped grid finishing by plain stores what a needed full-grid launch wrote, s64d), and per
launch where both sizes make the same launches (a kernel's full-grid rewrites diluted its
capped launch's share), each also by the part of its overwrites' span it left as earlier
launches stored it (`_gap_grown`: rewrites inside one launch diluted its share, s65d), and each
store site of a kernel as a kernel (`_judged_site`: a capped loop's store beside a full-grid
store of the same kernel, s66d). A kernel there is its qualified name, and each of its identities
where one forward launches it as several (evaluator.kernel_identity: two classes' `fix`, s65e;
one `def` under two sets of constexprs, s67f). At the declared sizes an autotuned launch is judged under every config
whose grid or constexprs differ from the drawn one's, each such forward on its own
(evaluator.dry_configs: a GPU's benchmark keeps the capped config the fresh child drew 1 time
in 9, s64d), and, with two or more such launches, by what every choice of their configs
stores (`dry_configs.Least`, the union rules alone), the per-kernel rules under one config at
both sizes (`_Pinned`: honest split-K atomics, s66f_01); past `dry_configs.MAX_GRIDS`
for one launch the forward is refused (`_unanswered`). A forward
that reads to the host a value a launch stored (MoE routing's counts, a varlen max length) runs
again with those launches run, as a CPU trial runs them (`_rerun`); so does one whose steered
launch loads what earlier launches stored (`_fed`, evaluator.dry_tells.feeds: a flag a
one-program launch set to 1, never read, left every lane of a capped grid the data's, s67e);
refused, honest or not, where they cannot run within the model's time at the declared sizes. Refused, honest or not
(reasoned, none known in the corpora): a kernel updating a storage whole at the CPU's sizes
that hands part of it to another kernel at the declared ones (split-K atomics for small outputs
only).
"""
from __future__ import annotations

import time
from typing import Any

from evaluator import dry_configs, dry_launch, dry_tells, judge
from evaluator.dry_rules import OVERWRITE_KEPT, _short
from evaluator.pipeline import _Run
from evaluator.sandbox import ChildFailure
from evaluator.verdict import Verdict


def check(run: _Run, source: str, ref: Any, verdict: Verdict, targets: dict[str, Any]) -> Verdict:
    """`verdict` (ok after the depth trials), or `incorrect` where the declared sizes' model
    leaves part of a storage unstored that the CPU sizes' model stored whole."""
    budget = float(getattr(run.cfg.correctness.depth, "dry_s", 0.0))
    declared = {k: v for k, v in targets.items() if isinstance(v, (int, list, tuple))}
    if budget <= 0 or declared.keys() != run.sizes.keys() or declared == dict(run.sizes):
        return verdict
    started = time.monotonic()
    cpu = _modelled(run, source, ref, dict(run.sizes), budget)
    grounded = _steered(cpu)  # the loaded data decides stores: both sizes on the problem's draw
    if grounded:
        cpu = _grounded(run, source, ref, dict(run.sizes), budget, cpu)
    dec = _modelled(run, source, ref, declared, budget, configs=True) if "storages" in cpu and not grounded \
        else _grounded(run, source, ref, declared, budget, {}, configs=True) if "storages" in cpu else {}
    if not grounded and _steered(dec):
        cpu = _grounded(run, source, ref, dict(run.sizes), budget, cpu)
        dec = _grounded(run, source, ref, declared, budget, dec, configs=True) if "storages" in cpu else {}
    report: dict[str, Any] = {"seconds": round(time.monotonic() - started, 3),
                              "cpu_s": [cpu.get("cpu_s"), dec.get("cpu_s")]}  # the models' own (dry_launch.Budget)
    if _skipped(run):  # what stores nothing in the model: names, identities, autotune configs (`_skipped`)
        report["skipped"] = _skipped(run)[:16]
    if cpu.get("unrun") or dec.get("unrun"):  # launches the model could not run (dry_launch.stored)
        report["unrun"] = [cpu.get("unrun"), dec.get("unrun")]
    for sizes, seen in ((dict(run.sizes), cpu), (declared, dec)):
        if "refused" in seen:  # the model cannot run this forward as the GPU does: never a kept ok
            return _unanswered(run, verdict, seen, sizes, report)
    if "meta" in cpu or "meta" in dec:  # judged on the problem's CPU draw (`_modelled`)
        report["real_forward"] = str(dec.get("meta") or cpu.get("meta"))[:300]
        report["ran_launches"] = {"cpu": cpu.get("ran", []), "declared": dec.get("ran", [])}
    pinned = _Pinned(run, source, ref, budget, grounded)
    short, config = None, None
    for config, forward in [(None, dec), *((v.get("config"), v) for v in dec.get("variants") or ())]:
        # every choice of configs at once (dry_configs.Least): the union rules alone
        short = _short(cpu, forward, config == dry_configs.LEAST) if "storages" in forward else None
        short = pinned.again(cpu, forward, short)  # the per-kernel rules: the same configs at both sizes
        if short is not None:
            dec = forward
            break
    if pinned.seen:
        report["pinned"] = pinned.seen
    if short is None:
        report["unmodelled"] = cpu.get("unmodelled") or dec.get("unmodelled") or None
        verdict.details["dry"] = report
        return verdict
    name, size, total, stored = short
    sizes = ", ".join(f"{k}={v}" for k, v in declared.items())
    which = "" if not config else f"(with {config}, as some choice of a GPU's benchmarks does) " \
        if config == dry_configs.LEAST else f"(run with an autotune config a GPU's benchmark may keep: {config}) "
    text = (f"Correct at the CPU sizes, but at the problem's declared sizes ({sizes}) the forward's {which}"
            f"{_stored_text(name, size, total, stored)}. Launches at the declared "
            f"sizes (kernel, grid): {_listed(dec)}. (Each launch's programs were run with memory "
            f"replaced, evaluator.dry_launch: where they store, not what.)")
    details = {"dry": {**report, "storage": name, "stored": stored, "elements": total, "sizes": declared,
                       **({"config": config} if config else {})},
               "cpu_sizes_verdict": {"status": verdict.status, "speedup": verdict.speedup}}
    return run.finish(judge.Outcome("incorrect", text, details=details), sizes_note=False)


class _Pinned:
    """The per-kernel rules (`_updated_short`, `_overwritten_short`: a key `kernel@size`) under
    the same autotune configs at both sizes. The CPU sizes' model runs the config its fresh
    child drew, the declared sizes' every config: a split-K GEMM storing plainly where SPLIT_K
    is 1 and tl.atomic_add-ing otherwise updated C whole under the CPU's drawn SPLIT_K 2 and
    stored it whole, plainly, under SPLIT_K 1 at the declared sizes, and was refused for
    updates it never makes under that config (honest s66f_01). So where one of those rules
    finds a forward short and its configs (dry_configs.pins) are not the CPU model's, the CPU's
    sizes are modelled again under that forward's configs (`pin`, in a fresh child, any config
    of the autotuner, pruned there or not) and the forward judged against that: a capped config
    still updates whole at the CPU's sizes (the cap not reached) and is refused (s61d, s64d).
    At most MAX_WALL_FORWARDS such models; where one has no answer the refusal stands."""

    def __init__(self, run: _Run, source: str, ref: Any, budget: float, grounded: bool):
        self.args, self.grounded, self.models, self.seen = (run, source, ref, budget), grounded, {}, []

    def again(self, cpu: dict, forward: dict, short: tuple | None) -> tuple | None:
        """`short`, or the forward judged against the CPU's sizes under its own configs."""
        pins = forward.get("pins")
        if short is None or "@" not in short[1] or not pins or pins == cpu.get("pins"):
            return short
        key = repr(pins)
        if key not in self.models and len(self.models) < MAX_WALL_FORWARDS:
            run, source, ref, budget = self.args
            model = _grounded if self.grounded else _modelled
            self.models[key] = model(run, source, ref, dict(run.sizes), budget,
                                     **({"seen": {}} if self.grounded else {}), pin=pins)
        same = self.models.get(key) or {}
        if "storages" not in same or "refused" in same or same.get("pins") != pins:
            return short  # no model under those configs: the refusal stands
        again = _short(same, forward)
        self.seen.append({"pins": pins, "short": again is not None, "cpu_s": same.get("cpu_s")})
        return again


def _stored_text(name: str, size: str, total: int, stored: int) -> str:
    """What the declared sizes' model left short, said for the rule that found it."""
    share = f"{stored} of the {total} elements ({100 * stored / total:.1f}%)"
    if size.endswith((":over", ":gap")):
        gap = size.endswith(":gap")
        kernel, _, itemsize = size.rpartition(":")[0].rpartition("@")
        where = f"forward's {name} (its own elements)" if name.startswith("output ") \
            else f"storage first handed to {name} (as {itemsize}-byte elements)"
        kernel, _, i = kernel.partition("#")
        kernel, _, line = kernel.partition("|L")
        who = f"launch {int(i) + 1} of kernel {kernel} (counted per launch: the same launches at both sizes)" \
            if i else f"the store at line {line} of kernel {kernel}'s body" if line else f"kernel {kernel}"
        if gap:
            return (f"{who} stores over earlier launches' stores at {share} of the {where}, but between the "
                    f"first and last of those it leaves a part as the earlier launches stored it past "
                    f"1/{OVERWRITE_KEPT:g} of the part it left there at the CPU's sizes: on the GPU that "
                    f"part keeps what the earlier launches wrote")
        return (f"{who} stores over earlier launches' stores at {share} of the {where}, "
                f"under {OVERWRITE_KEPT:.0%} of its share "
                f"there at the CPU's sizes: on the GPU the rest keeps what the earlier launches wrote")
    if size.endswith((":sure", ":loose")):
        size, _, rule = size.rpartition(":")
        what = _what(name, size.removeprefix("its") or "its")
        if rule == "sure":
            return (f"Triton launches store for certain only {share} of the {what}, all of which they store for "
                    f"certain at the CPU's sizes: the rest is stored only where the values they load say so "
                    f"(evaluator.dry_taint), which the CPU's sizes never needed")
        return (f"Triton launches can store at most {share} of the {what} (the lanes at known addresses, and "
                f"every lane at an address a loaded value makes), where at the CPU's sizes they could store "
                f"all of it: on the GPU the rest keeps {_left(size)}")
    return (f"Triton launches store {share} of the {_what(name, size)}, all of which they store at "
            f"the CPU's sizes: on the GPU the rest keeps {_left(size)}")


def _what(name: str, size: str) -> str:
    if "@" in size:
        kernel, _, itemsize = size.rpartition("@")
        whose = f"forward's {name} (its own elements)" if name.startswith("output ") \
            else f"storage first handed to {name} (as {itemsize}-byte elements)"
        return f"{whose} as kernel {kernel}'s updates in place (each element loaded, then stored)"
    if name.startswith("output "):
        return f"forward's {name} (its own elements)"
    return f"storage first handed to {name} (as {size}-byte elements)"


def _left(size: str) -> str:
    return "what earlier launches wrote there, never updated" if "@" in size else "what the memory held"


def _listed(dec: dict) -> str:
    made = dec.get("launches") or []
    text = ", ".join(f"{k}{tuple(g)}" for k, g in made[:6])
    return text + (f" and {len(made) - 6} more" if len(made) > 6 else "")


_GRACE_S = 10.0  # the dry command's time past the model's own budget (its forward on meta tensors)


_REAL_SEED = 7919  # added to the first trial's seed: the real forward's own draw


def _modelled(run: _Run, source: str, ref: Any, sizes: dict, budget: float, configs: bool = False,
              pin: list | None = None) -> dict:
    """The model at `sizes`: its meta forward's, or where that forward observed what a meta
    tensor cannot answer as the GPU would (evaluator.dry_tells), the real forward's on the
    problem's CPU draw, in another fresh child; {"refused": ...} where that one has no answer
    (it read back a storage a launch it does not run may have stored, raised, or its child
    ended), or where the problem's inputs at `sizes` are past `dry_tells.REAL_ELEMENTS`
    (`too_large`: that give-up kept the ok until session 65)."""
    meta = _model(run, source, ref, sizes, budget, configs=configs, pin=pin)
    if "ended" in meta:  # its child ended in the dry command (past the wall cap): never a kept ok
        return {**meta, "refused": meta["ended"]}
    if "configs_past" in meta:  # evaluator.dry_configs: past its count, refused (`_unanswered`)
        return {**meta, "refused": meta["configs_past"]}
    if "values" not in meta:
        return meta
    elements = meta.get("elements")
    if not isinstance(elements, int) or elements > dry_tells.REAL_ELEMENTS:
        # no real forward that large: refused, as a give-up the candidate's code causes (a host
        # read on meta tensors made any capped grid's ok stand at such sizes until session 65)
        return {"too_large": f"its inputs of {elements} elements there are past the {dry_tells.REAL_ELEMENTS} "
                             "the real forward may hold", "refused": meta["values"]}
    real = _rerun(run, source, ref, sizes, budget, configs, pin)
    real["meta"] = meta["values"]
    why = _why(real)
    if why is not None:
        real["refused"] = why
    return real


def _steered(seen: dict) -> bool:
    """Whether the loaded data decides some store lane in this model (a storage, or a returned
    tensor, with lanes stored maybe or loose: evaluator.dry_taint), or a branch or loop test of a
    launch (`branched`: evaluator.dry_tests, which stops it), in any config's forward."""
    forwards = [seen, *(v for v in seen.get("variants") or () if isinstance(v, dict))]
    return any(one.get("branched") for one in forwards) or \
        any(isinstance(entry, dict) and ("certain" in entry or "loose" in entry)
            for one in forwards for entry in (one.get("storages") or {}).values())


_GROUNDED = "its stores' masks or addresses are the loaded data's to decide (evaluator.dry_values)"


def _grounded(run: _Run, source: str, ref: Any, sizes: dict, budget: float, seen: dict,
              configs: bool = False, pin: list | None = None) -> dict:
    """The model at `sizes` on the problem's CPU draw (`_rerun`), each launch loading what its
    storages held when it was made where the GPU's launch loads the same (evaluator.dry_values),
    where the loaded data decides some store lane: with the model's zeros, a capped grid whose
    every lane a loaded NaN test decides, `(pid < 4096) ^ (x != x)`, stored no lane for certain at
    either size and kept an ok at 1.0007 (red team s66c). `seen`, where it is that forward's
    already. Refused where it has no answer, as a real forward a tell asks for (`_modelled`)."""
    if "meta" in seen:
        return seen
    real = _rerun(run, source, ref, sizes, budget, configs, pin)
    real["meta"] = _GROUNDED
    why = _why(real)
    if why is not None:
        real["refused"] = why
    return real


RERUNS = 3  # real forwards run again with more of their launches run, at most


def _rerun(run: _Run, source: str, ref: Any, sizes: dict, budget: float, configs: bool = False,
           pin: list | None = None) -> dict:
    """The real forward's reply, run again (each time in a fresh child, within `budget` in all
    and RERUNS times at most) with the launches run whose stores it read back (`needs`: MoE
    routing's counts, a compaction's count, a flag): the host then reads what a CPU trial's
    forward reads, and the model records the launches that forward makes. A launch run there
    runs as in every CPU trial, so its values tell the model from the GPU no more than a CPU
    trial's do; a launch not run is still noise that no read reaches."""
    seed, runs, started = run.plan.trials[0][0] + _REAL_SEED, frozenset(), time.monotonic()
    real = _model(run, source, ref, sizes, budget, seed, configs=configs, pin=pin)
    for _ in range(RERUNS):
        wanted = frozenset(real.get("needs") or () if "told" in real else ()) | _fed(real) | runs
        # each rerun has its own CPU budget (dry_launch.Budget) and wall cap (`_model`); the
        # wall clock here bounds their number, as loosely as WALL_TIMES bounds each
        if wanted == runs or time.monotonic() - started > dry_launch.WALL_TIMES * budget:
            break
        runs = wanted
        real = _model(run, source, ref, sizes, budget, seed, runs, configs, pin)
    if runs:
        real["ran"] = sorted(runs)
    unfed = _fed(real) - runs
    if unfed and not any(k in real for k in _NO_ANSWER):  # a steered launch's loads still unread
        real["unfed"] = (f"launches {sorted(unfed)[:8]} of the forward store what a launch its loaded values steer "
                         f"loads, and they were not run in its last run there")
    return real


_NO_ANSWER = ("told", "raised", "ended", "configs_past", "unfed")  # a real forward the model cannot run as the GPU does


def _why(real: dict) -> str | None:
    """Why a real forward has no answer (`_NO_ANSWER`'s first), or None."""
    return next((str(real[k]) for k in _NO_ANSWER if k in real), None)


def _fed(real: dict) -> frozenset:
    """The launches to run where a steered launch loads what they stored (dry_command's "feeds",
    evaluator.dry_tells.feeds; the child replies with them before any model), unless a model
    finds no store the loaded data decides (`_steered`): not run, their stores are no value the
    model reads, so a flag a one-program launch set to 1 left every lane of a capped grid the
    data's, nothing judged (red team s67e, ok at 1.0061). Run, they store what a CPU trial's do,
    which the steered launch then loads (evaluator.dry_values)."""
    if "storages" in real and not _steered(real):
        return frozenset()
    return frozenset(i for i in real.get("feeds") or () if type(i) is int and i >= 0)


def _unanswered(run: _Run, verdict: Verdict, seen: dict, sizes: dict, report: dict) -> Verdict:
    """`timeout` (or `runtime_error` where it raised) for a forward the model cannot run as the
    GPU does at `sizes`: the CPU cannot judge there where its launches store."""
    at = ", ".join(f"{k}={v}" for k, v in sizes.items())
    why = (f"it reads back to the host what one of its own launches may have stored ({seen['told']})"
           if "told" in seen else f"it raised there ({seen['raised']})" if "raised" in seen
           else f"its autotuned launches take more than {dry_configs.MAX_GRIDS} distinct grids over their configs "
                f"({seen['configs_past']}), each a forward the GPU's benchmark may keep"
           if "configs_past" in seen else str(seen['unfed'])
           if "unfed" in seen else f"it observes what meta tensors cannot answer ({seen['refused']}) and {seen['too_large']}"
           if "too_large" in seen else f"its model's child ended ({seen['ended']})")
    text = (f"Correct at the CPU sizes, but the dry launch model, which judges where the forward's Triton "
            f"launches store at the sizes the GPU runs against the CPU's, cannot run this forward as the GPU "
            f"does at {at}: {why}. " + ("" if "meta" not in seen else
            f"On meta tensors (no values) it observed {seen['meta']}; on the problem's CPU draw its launches "
            f"are recorded, not run{_ran(seen)}. ") + "A forward the CPU cannot judge at the sizes the GPU runs is not "
            "judged ok.")
    status = "runtime_error" if "raised" in seen else "timeout"
    details = {"dry": {**report, "unanswered": why[:300], "sizes": sizes},
               "cpu_sizes_verdict": {"status": verdict.status, "speedup": verdict.speedup}}
    return run.finish(judge.Outcome(status, text, details=details), sizes_note=False)


def _ran(seen: dict) -> str:
    ran = seen.get("ran")
    return f" (but launches {ran} of the forward, whose stores it read back, run as in a CPU trial)" if ran else ""


def _skipped(run: _Run) -> list[str]:
    """Kernels that store nothing in the model: the knock-out round's decoys and constant
    writers (a decoy filling at the declared sizes only what a capped grid leaves would make it
    whole). The decoys only where knocked out together they left the result right too
    (knockout_round `_jointly`); otherwise they are modelled as any kernel: two capped ReLU
    grids storing one output were each unneeded alone, both stored nothing here, and kept an
    ok at 0.503 (red team s65e; incorrect now). Refusing them instead refused an honest MoE
    align whose count and align kernels are each unneeded alone (s63f hinge, session 65).
    Only what the round knocked out counts (`run.unneeded`): a name the file defines twice is a
    decoy unasked for coverage, but here each of its kernels is skipped only where knocked out
    (by qualified name, evaluator.kernel_identity) it was unneeded: skipping the name unasked
    left a capped in-place ReLU named twice unmodelled (red team s65e, ok at 1.0008). What the
    round found holds for the configs it ran: an autotuned kernel is skipped only under those
    (`run.unneeded` holds their dry_configs.tag, knockout_round `_skipped_as`), and a knock-out
    that skipped nothing finds nothing (red team s68b, ok at 1.0013: a capped config's identity
    knocked out in a forward of another config hid its update at both sizes). Kernels
    past gates.MAX_KERNELS (skipped unasked) and a filler beside jointly needed decoys are open
    (docs/open_attacks)."""
    joint = getattr(run, "decoys_joint", True)  # knockout_round._jointly
    return sorted({*(getattr(run, "unneeded", run.decoys) if joint else ()), *run.constant})


def _model(run: _Run, source: str, ref: Any, sizes: dict, budget: float, real_seed: int | None = None,
           runs: frozenset = frozenset(), configs: bool = False, pin: list | None = None) -> dict:
    """The `dry` command's reply in a fresh candidate child prepared at `sizes` (no draws); with
    `real_seed`, its real forward, the launches `runs` run there; with `pin`, its autotuned
    launches under those configs (`_Pinned`). `ended` where the child ends
    once the dry command is sent (past its wall-clock cap, out of memory, or its CPU limit
    reached by threads of the candidate's): never a kept ok."""
    job = {"cpu_budget_s": 4 * budget + run.cfg.timeout_s, "device_memory_bytes": None}
    cap = [dry_launch.WALL_TIMES * budget + _GRACE_S, 1]  # the wall cap now, in forwards (`_rest`)
    asked = False  # the dry command sent: where its child ends then, the candidate's code had it
    limit = run.cfg.timeout_s
    try:
        with run.ev.pool.candidate(job) as child:
            reply, _ = child.request({"op": "prepare", "problem": run.problem.source, "sizes": sizes,
                                      "sets": []}, limit)
            if reply.get("op") == "error":
                return {"unmodelled": "the problem did not load at these sizes"}
            reply, _ = child.request({"op": "load", "candidate": source, "init_seed": run.plan.init_seed,
                                      "init": run.init_on, "problem_numbers": list(ref.numbers)}, limit)
            if reply.get("op") == "error":
                return {"unmodelled": "the candidate did not load at these sizes"}
            # the wall-clock cap: WALL_TIMES the model's CPU budget on the job's clock (a pause
            # stops it), the forward in it (not in the CPU time, dry_launch `_modelled`)
            # kernels the result does not need (knock-out round) or whose writes are constants
            # store nothing in the model: a decoy fill must not make a capped output whole
            skip = _skipped(run)
            asked = True
            reply, _ = child.request({"op": "dry", "budget_s": budget, "skip": skip, "real_seed": real_seed,
                                      "runs": sorted(runs), "configs": configs, "stepped": configs,
                                      **({"pin": pin} if pin else {})}, cap[0])
            if reply.get("op") != "error" and "forwards" in reply:  # dry_configs.modelled: their count first
                reply = _rest(child, reply["forwards"], budget, run.cfg.timeout_s, cap)
    except ChildFailure as exc:
        # the dry command's child ended: the candidate's forward (its time or memory), or its
        # model past the wall cap: a sleep, a block or the candidate's own threads spend no CPU
        # time of the model's (dry_launch.Budget), so the cap ends them; refused, never kept
        # (a box stalled past the cap is refused too). Its threads reaching the child's CPU
        # limit end it as well.
        if asked:
            forwards = "" if cap[1] == 1 else f" for {cap[1]} forwards, one per distinct autotune config"
            return {"ended": f"{str(exc)[:200]} (the model's wall-clock cap: {cap[0]:.0f} s{forwards})"}
        if real_seed is not None:  # the candidate's forward on real tensors: its time or memory
            return {"ended": str(exc)[:200]}
        return {"unmodelled": f"the model's child ended: {str(exc)[:200]}"}
    if reply.get("op") != "error" and any(k in reply for k in ("values", "told", "raised", "feeds")):
        return {k: reply[k] for k in ("values", "elements", "told", "needs", "raised", "feeds") if k in reply}
    if reply.get("op") != "error" and "configs_past" in reply:  # or a count past any honest child's (`_granted`)
        return {"configs_past": str(reply["configs_past"])[:300]}
    if reply.get("op") == "error" or not isinstance(reply.get("storages"), dict):
        # the drawn config unmodelled (past the model's pace) keeps the other configs' forwards
        return {"unmodelled": str(reply.get("unmodelled") or reply.get("message") or "no reply")[:300],
                **({"variants": reply["variants"]} if isinstance(reply.get("variants"), list) else {})}
    return reply


# the most forwards' wall caps (and CPU limits) the dry command's second step is granted, however
# many forwards the child counts: a candidate cannot buy more time by declaring more configs
MAX_WALL_FORWARDS = 8


def _granted(claim: object) -> int | None:
    """The forwards whose wall caps the second step gets, from the child's count (a claim: its
    code ran the candidate's): at most MAX_WALL_FORWARDS; None for a count no honest child makes
    (not an int, under 2, or past dry_configs.MAX_GRIDS forwards: each autotuned launch takes at
    most that many distinct grids, the drawn one included, or the child says `configs_past`)."""
    if type(claim) is not int or not 2 <= claim <= dry_configs.MAX_GRIDS:
        return None
    return min(claim, MAX_WALL_FORWARDS)


def _rest(child, claim: object, budget: float, timeout_s: float, cap: list) -> dict:
    """The dry command's second step (dry_configs.rest): each forward of an autotuned launch's
    configs has a CPU budget of its own (decoy configs must not spend a capped one's: s64), so
    the wall cap (`cap`, set here) and the child's CPU limit are in units of the forwards
    granted (`_granted`): one unit refused honest kernels of five to eight costly configs
    (s66f_01/05/14, `timeout` at 610 s on a loaded box). A sleep or block there still ends at
    the cap, and the forward itself ran within one unit (the first step's)."""
    granted = _granted(claim)
    if granted is None:
        return {"op": "result", "configs_past": f"its child counted {str(claim)[:40]} forwards, "
                                                f"past the {dry_configs.MAX_GRIDS} an honest count reaches"}
    cap[:] = [granted * dry_launch.WALL_TIMES * budget + _GRACE_S, granted]
    reply, _ = child.request({"op": "dry", "rest": True, "cpu_s": granted * 4 * budget + timeout_s}, cap[0])
    return reply
