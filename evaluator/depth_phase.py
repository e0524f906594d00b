"""Depth trials: a CPU verdict also holds at the problem's declared size of each dimension.

Under Triton's interpreter a problem runs at its manifest's `sizes.cpu` (tens of thousands of
elements, matmuls of tens), where the GPU runs the file's own values. Numerics and resources
that depend on one size then pass on the CPU and fail on the GPU: a float16 accumulator
carried over K rounds 256 times at K = 4096 and a few times at K = 104 (red team rt24), an
autocast float16 GEMM's error grows with its depth, a block sized from a row length asks the
compiler for more shared memory than an H200 has only at the real length (honest round s48).

So an `ok` on the CPU is checked once more per shrunk size: that one size goes back to the
value the problem file declares (`dim = 8192`; the others stay at the CPU's; what its module
binds the name to, however written, or the problem's GPU sizes: `_targets`), as far as
`depth.max_elements` input elements allow (a power of two short of it otherwise), and one
base trial runs there, the reference at the same sizes in the trusted reference child and
the candidate in a fresh child of its own, judged as every trial is (`correctness_phase`).
A size whose variant the problem itself cannot run (its own code fails there) is skipped and
said so. Anything else that is not ok there is the verdict, with the sizes named. The GPU runs
the declared sizes throughout, so nothing here runs there.

Every shrunk size is raised in some trial (red team rt82): past `depth.max_variants`, the last
trial raises every size left over at once (a conv's fifth size, its width, was never raised);
a joint the problem cannot run is judged a size at a time; and the sizes the problem could run
at none alone are raised together (groupnorm's channels need its num_groups to divide them).
And the sizes whose trial alone grew the output are raised together, to about a million
output elements (`_output_joint`): a persistent matmul whose 132 programs took two tiles each
was right with M or N alone at 2048 and wrong at both (red team rt83); a joint of every size,
K too, ran out of the interpreter's time where this one (M = N = 1024 at the CPU's K) does not.
That joint, the costliest trial, runs after the dry launch model (evaluator.dry_phase), which
refuses a constant-capped coverage without it (`_dry`).

A trial that runs out of the depth time (`depth.timeout_s`) runs again at a quarter of its
value (`depth.retry_shrink`; at least twice the CPU's), `depth.retries` times (once by default:
each retry is a smaller value a stall above it is judged at). A retry's limit is twice the CPU
sizes' whole correctness time grown with the size, at least `retry_time` x `timeout_s` and at
most `retry_max_s`, and its value is lowered (a power of two, at least twice the CPU's) until
that prediction fits: a kernel the interpreter is slow for at every size is judged where it
can finish. Measured on 2 loaded cores: FlagGems' autotuned layer norm (120 s at 1024 rows, 30
s at 256), an unrolled conv1d (54 s at a quarter of its length), fla's 48-config autotuned
cumsum (79 s for the CPU sizes' trials; its retries ran at twice the CPU's sizes in 61 s and 51
s; honest s50k_03). A stall runs past any limit.
Out of time at every value, or a retry not judged, is the candidate's `timeout`: no time the
CPU allows is otherwise a verdict, and a file that stalls above the CPU's sizes (a host wait
when K exceeds them, red team rt51) would keep its ok at every size it refuses to run.
Skipping a timeout cannot be told apart from that: a slow kernel's time is the candidate's to
make (a loop in its own kernel costs the interpreter seconds and the GPU microseconds), so no
prediction of an honest time holds against one that grows its wait at the prediction's margin.

What this does not do: sizes large together past that output budget, or with a reduction
size, a file that tests its sizes and behaves only at a combination the CPU never runs, or
only above a quarter of a declared size it then stalls at, is the GPU evaluator's to judge
(docs/threat_model.md).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any

from common.config.correctness import DepthConfig
from common.messages import EvalSettings
from common.problem_sizes import declared_sizes
from evaluator import dry_phase, judge, reference_phase
from evaluator.pipeline import _Run
from evaluator.reference import ProblemFailed, ProblemRaised, ReferenceOutputs, TrialPlan
from evaluator.sandbox import Child, SandboxFailure
from evaluator.verdict import Verdict

DEPTH_SEED = 104729  # added to the worker's first trial seed: the depth trials' own draw


@dataclass(frozen=True)
class Depth:
    """One depth variant: `name` raised from `cpu` to `value` (the file declares `declared`);
    with `index`, element `index` of the tuple size `name` (KernelBench's losses and scans
    declare their row as `input_shape = (32768,)`), the other elements kept."""

    name: str
    cpu: int
    value: int
    declared: int
    index: int | None = None
    joined: tuple[Depth, ...] = ()  # sizes raised in the same trial (those past `max_variants`)
    together: bool = False  # sizes the problem ran alone nowhere (`_coupled`): never split

    @property
    def label(self) -> str:
        own = self.name if self.index is None else f"{self.name}[{self.index}]"
        return "+".join([own, *(d.label for d in self.joined)])

    @property
    def names(self) -> frozenset[str]:
        """The problem's size names this variant raises."""
        return frozenset([self.name, *(d.name for d in self.joined)])

    def describe(self) -> str:
        part = "" if self.value == self.declared else f" of the file's {self.declared}"
        own = self.name if self.index is None else f"{self.name}[{self.index}]"
        return ", ".join([f"{own}={self.value}{part}", *(d.describe() for d in self.joined)])

    def raised(self) -> dict[str, int]:
        """Each size this variant raises, by label, at its value."""
        own = self.name if self.index is None else f"{self.name}[{self.index}]"
        return {own: self.value, **{k: v for d in self.joined for k, v in d.raised().items()}}

    def sized(self, sizes: dict, value: int | None = None) -> dict:
        """`sizes` with this size at `value` (this variant's own by default), and the sizes
        joined to it at theirs."""
        value = self.value if value is None else value
        if self.index is None:
            out = {**sizes, self.name: value}
        else:
            elements = list(sizes[self.name])
            elements[self.index] = value
            out = {**sizes, self.name: elements}
        for other in self.joined:
            out = other.sized(out)
        return out


class DepthRun(_Run):
    """An evaluation's run at one depth variant: its sizes, one base trial, no knock-outs,
    no timing; the candidate's job ends after that trial is judged."""

    def __init__(self, run: _Run, depth: Depth, trial: tuple[int, str], timeout_s: float):
        super().__init__(run.ev, run.problem, EvalSettings(device=run.ev.device, timeout_s=timeout_s,
                                                           timing=False, profile=False))
        self.sizes = depth.sized(run.sizes)
        self.memory_key = f"{run.memory_key}|depth:" + ",".join(f"{k}={v}" for k, v in depth.raised().items())
        self.plan = TrialPlan(init_seed=run.plan.init_seed, trials=(trial,), knockout=run.plan.knockout)
        self.depth_run = True

    def run_candidate(self, child: Child, source: str, ref: ReferenceOutputs) -> Verdict:
        stopped = self.prepare_and_load(child, source, ref, reference_phase.trial_sets(self))
        if stopped is not None:
            return stopped
        with self.phase("correctness"):
            outcome = self.correctness(child, ref)
        return self.finish(outcome or judge.Outcome("ok", "Correct."))


def variants(run: _Run, elements: int, declared: dict[str, Any] | None = None) -> list[Depth]:
    """The sizes to restore, the most shrunk first: each size the CPU runs smaller than the
    GPU runs it (`_targets`: the file's own value, from `declared` where the reference child
    read it), raised as far as the budget allows (`elements`: the CPU trial's).
    At most `max_variants` trials: where more sizes are shrunk, the last trial raises every
    size left over at once, so no shrunk size goes unraised (red team rt82: conv2d_bias_relu's
    fifth size, its width, was never raised, and a row tile of 16 columns with no loop over the
    width was ok at the CPU's 13 and wrong at the declared 64)."""
    cfg: DepthConfig = run.cfg.correctness.depth
    targets = _targets(run, declared)
    out = []
    for name, cpu in run.sizes.items():
        out += _shrunk(name, cpu, targets.get(name))
    out.sort(key=lambda d: d.declared / d.cpu, reverse=True)
    if not (0 < elements <= cfg.max_elements) or cfg.max_variants <= 0:
        return []
    if len(out) <= cfg.max_variants:
        return out
    head, rest = out[:cfg.max_variants - 1], out[cfg.max_variants - 1:]
    return [*head, replace(rest[0], joined=tuple(rest[1:]))]


def _targets(run: _Run, declared: dict[str, Any] | None) -> dict[str, Any]:
    """The value the GPU runs each size at: the GPU's own sizes where the problem gives some,
    else the file's value. That is what the problem module bound the name to (`declared`, read
    in the reference child: `int(16384)`, `M, K = Shape.rows, Shape.cols`, `dim = hidden * 4`,
    each of which a reading of the file's literals missed and the CPU's ok stood, s58f), else
    the literal `declared_sizes` reads. A size with neither is `_UNKNOWN` (`_shrunk`)."""
    literal = declared_sizes(run.problem.source)
    read = {k: v for k, v in (declared or {}).items() if v is not None}
    gpu = dict((getattr(run.problem, "sizes", None) or {}).get("cuda", None) or {})
    return {name: gpu.get(name, read.get(name, literal.get(name, _UNKNOWN))) for name in run.sizes}


_UNKNOWN = object()  # a CPU size the file gives no value for (`_targets`)
_UNKNOWN_GROWTH = 64  # such a size is raised toward this many times the CPU's, within the budget


def _shrunk(name: str, cpu: Any, want: Any) -> list[Depth]:
    """The depths of one size: an integer the CPU runs smaller than declared, or each such
    element of a tuple or list of integers (`input_shape`: (1000,) on the CPU, (32768,)
    declared; KernelBench's level-3 `layer_sizes = [16384, 16384]`). A size the problem gives
    no value for at all (`_UNKNOWN`: a name its module never binds, as where get_inputs reads
    `globals().get("dim", 8192)`) is raised toward `_UNKNOWN_GROWTH` times the CPU's, each
    integer of it: the GPU's value is not known, so it is not taken to be the CPU's."""
    if want is _UNKNOWN:
        want = [c * _UNKNOWN_GROWTH if type(c) is int else c for c in cpu] \
            if isinstance(cpu, (list, tuple)) else cpu * _UNKNOWN_GROWTH if type(cpu) is int else None
    if type(cpu) is int and type(want) is int:
        return [Depth(name, cpu, want, want)] if 0 < cpu < want else []
    if not (isinstance(cpu, (list, tuple)) and isinstance(want, (list, tuple)) and len(cpu) == len(want)):
        return []
    return [Depth(name, c, w, w, index=i) for i, (c, w) in enumerate(zip(cpu, want))
            if type(c) is int and type(w) is int and 0 < c < w]


def _fitted(run: _Run, depth: Depth, elements: int, budget: int) -> Depth | None:
    """`depth` at the largest value up to the declared one whose inputs stay within `budget`
    elements. How fast they grow with this size (linearly, or as its square for an N x N
    input) is read off a draw at twice the CPU size before anything larger is drawn; the
    value chosen is drawn once to confirm it (halved while over). None where even twice the
    CPU size is over, or the problem's own code fails there. A joint variant: `_fitted_joint`."""
    if depth.joined:
        return _fitted_joint(run, depth, budget)
    probe = min(2 * depth.cpu, depth.declared)
    grown = _elements(run, depth.sized(run.sizes, probe))
    if grown is None or grown > budget:
        return None
    if probe == depth.declared:
        return depth
    power = max(math.log2(max(grown, 1) / max(elements, 1)), 0.25)  # elements ~ size ** power
    value = min(depth.declared, int(depth.cpu * (budget / elements) ** (1 / power)))
    if value < depth.declared:
        value = 1 << (value.bit_length() - 1)  # a power of two short of the budget, as real sizes are
    while value > 2 * depth.cpu:
        made = _elements(run, depth.sized(run.sizes, value))
        if made is not None and made <= budget:
            return replace(depth, value=value)
        value = 1 << ((value - 1).bit_length() - 1)  # the next power of two down
    return replace(depth, value=probe)


def _fitted_joint(run: _Run, depth: Depth, budget: int) -> Depth | None:
    """A joint variant (`variants`) with every size it raises at the declared value, lowered
    while its inputs are over `budget` elements (or the problem's own code fails): the size
    raised furthest past the CPU's goes a power of two down at a time, and one that would come
    under twice the CPU's value leaves the variant. None where none is left."""
    parts = _parts(depth)
    for _ in range(_JOINT_DRAWS):
        if not parts:
            return None
        joint = replace(parts[0], joined=tuple(parts[1:]), together=depth.together)
        made = _elements(run, joint.sized(run.sizes))
        if made is not None and made <= budget:
            return joint
        i = max(range(len(parts)), key=lambda k: parts[k].value / parts[k].cpu)
        value = 1 << ((parts[i].value - 1).bit_length() - 1)
        if value < 2 * parts[i].cpu:
            parts.pop(i)
        else:
            parts[i] = replace(parts[i], value=value)
    return None


_JOINT_DRAWS = 32  # draws of a joint variant's inputs at most while fitting it to the budget


def _elements(run: _Run, sizes: dict) -> int | None:
    """Input elements of one base draw at `sizes`, made by the trusted reference child;
    None where the problem's own code fails there."""
    header = {"op": "prepare", "problem": run.problem.source, "sizes": sizes, "reset_sets": True,
              "sets": [{"id": 0, "seed": run.plan.trials[0][0], "transform": "base"}]}
    reply = _prepared(run, header)
    if reply is None:
        return None
    made = reply.get("sets", {}).get("0", {})
    return int(made.get("elements") or 0) or None


def _declared(run: _Run) -> dict[str, Any] | None:
    """What the problem module binds each size's name to, before the CPU's sizes replace it
    (the reference child's `prepare` at the CPU sizes: no draw); None where it fails."""
    header = {"op": "prepare", "problem": run.problem.source, "sizes": run.sizes, "sets": []}
    declared = (_prepared(run, header) or {}).get("declared")
    return declared if isinstance(declared, dict) else None


def _prepared(run: _Run, header: dict) -> dict | None:
    """The trusted reference child's reply to a `prepare`; None where the problem's own code fails."""
    try:
        with run.ev.pool.reference() as child:
            return reference_phase.request(run, child, header, timeout_s=run.cfg.timeout_s)[0]
    except ProblemFailed:
        return None


def planned(run: _Run, ref: ReferenceOutputs) -> list[Depth]:
    """This problem's depth variants at its CPU sizes, worked out once per worker (a few
    draws of its inputs in the reference child, no forward)."""
    cache, key = run.ev.depth_plans, plan_key(run)
    if key not in cache:
        elements = int(ref.trials[0].get("elements") or 0) if ref.trials else 0
        budget = run.cfg.correctness.depth.max_elements
        shrunk = variants(run, elements, _declared(run))
        fitted = [_fitted(run, depth, elements, budget) for depth in shrunk]
        cache[key] = [d for d in fitted if d is not None]
    return cache[key]


def plan_key(run: _Run) -> str:
    """The plan cache's key: the problem and the config the plan follows from (a plan made under
    one `max_variants` was reused under another: test_depth_trials passed or failed by order)."""
    cfg = run.cfg.correctness.depth
    return f"{run.memory_key}|plan:{cfg.max_variants},{cfg.max_elements}"


def check(run: _Run, source: str, ref: ReferenceOutputs, verdict: Verdict) -> Verdict:
    """`verdict` (ok at the CPU sizes), or the first depth variant's verdict that is not ok."""
    cfg = run.cfg.correctness.depth
    if not cfg.enabled or run.ev.device != "cpu" or verdict.status != "ok" or not run.sizes:
        return verdict
    started, report = time.monotonic(), []
    trial = (run.plan.trials[0][0] + DEPTH_SEED, "base")
    cpu_s, unrun = verdict.phase_seconds.get("correctness", 0.0), []
    try:
        for depth in planned(run, ref):
            refused = _judged(run, source, depth, trial, report, cpu_s, unrun)
            if refused is not None:
                return _refused(run, verdict, *refused, report)
        coupled = _coupled(run, unrun)
        refused = None if coupled is None else _judged(run, source, coupled, trial, report, cpu_s)
        if refused is not None:
            return _refused(run, verdict, *refused, report)
        verdict = _dry(run, source, ref, verdict, report)
        if verdict.status != "ok":  # a storage the declared sizes' launches leave part of
            return verdict
        wide = _output_joint(run, _out_elements(ref), report)
        refused = None if wide is None else _judged(run, source, wide, trial, report, cpu_s)
        if refused is not None:
            return _refused(run, verdict, *refused, report)
        if wide is not None and report[-1].get("skipped"):  # its reference failed: not again
            run.ev.depth_plans.setdefault(f"{run.memory_key}|unrun", []).append(wide.label)
    except SandboxFailure as exc:  # infrastructure: the CPU sizes' verdict stands, said so
        report.append({"error": str(exc)[:300]})
    verdict.details["depth"] = {"trials": report, "seconds": round(time.monotonic() - started, 3)}
    verdict.phase_seconds["depth"] = round(time.monotonic() - started, 3)
    return verdict


def _dry(run: _Run, source: str, ref: ReferenceOutputs, verdict: Verdict, report: list) -> Verdict:
    """The dry launch model's verdict (evaluator.dry_phase), before the output-growing joint
    trial (`_output_joint`): the ok that reaches the end is the same in either order (each of
    the two can only refuse), and a kernel whose stores a constant caps is refused by the model
    without the interpreter's costliest trial, a forward at about a million outputs (17.6 of the
    44.7 CPU s of s60f's runtime-clamped tile count file, 19.4 of 50.5 of its eight-tiles one,
    the process tree's, CPU (Triton interpreter), session 63). An infrastructure failure of the
    model is reported and the joint still runs."""
    try:
        return dry_phase.check(run, source, ref, verdict, _targets(run, _declared(run)))
    except SandboxFailure as exc:
        report.append({"error": f"dry launch model: {str(exc)[:300]}"})
        return verdict


_JOINT_OUTPUTS = 1 << 20  # output elements of the output-growing joint trial at most (`_output_joint`)


def _out_elements(ref: ReferenceOutputs) -> int:
    """Output elements of the reference's first trial."""
    return sum(math.prod(o["shape"]) for o in (ref.trials[0].get("outputs") or ())) if ref.trials else 0


def _output_joint(run: _Run, cpu_out: int, report: list) -> Depth | None:
    """The sizes whose trial alone grew the output, raised together (`together`: skipped,
    never split, where the problem cannot run it), each lowered from the value it ran at
    alone, the furthest raised first, while the output it predicts (each size's growth alone,
    as a power of its value) is over `_JOINT_OUTPUTS`, then fitted to the input budget; None
    under two such sizes or where it would not grow the output past every trial alone. A
    kernel wrong only where two sizes are large at once was ok (red team rt83: a persistent
    matmul of 132 programs taking two tiles each, right with M or N alone at 2048, wrong at
    both; a joint of every size, K too, ran out of the interpreter's time)."""
    plan = {d.label: d for d in run.ev.depth_plans.get(plan_key(run), ()) if not d.joined}
    alone = {e["size"]: e for e in report if e.get("status") == "ok" and e.get("size") in plan and e.get("out")}
    grown = [(replace(plan[k], value=int(e["value"])), math.log(e["out"] / cpu_out))
             for k, e in alone.items() if cpu_out and e["out"] > 1.5 * cpu_out]
    parts = [(d, g / math.log(d.value / d.cpu)) for d, g in grown if d.value > d.cpu]
    widest = max((int(e["out"]) for e in alone.values()), default=0)

    def predicted(ps: list) -> float:
        return cpu_out * math.prod((d.value / d.cpu) ** p for d, p in ps)
    while len(parts) >= 2 and predicted(parts) > _JOINT_OUTPUTS:
        i = max(range(len(parts)), key=lambda k: parts[k][0].value / parts[k][0].cpu)
        d, p = parts[i]
        value = 1 << ((d.value - 1).bit_length() - 1)
        if value < 2 * d.cpu:
            parts.pop(i)
        else:
            parts[i] = (replace(d, value=value), p)
    unrun = run.ev.depth_plans.get(f"{run.memory_key}|unrun", ())
    if len(parts) < 2 or predicted(parts) <= 2 * widest or "+".join(d.label for d, _ in parts) in unrun:
        return None
    sizes = [d for d, _ in parts]
    joint = replace(sizes[0], joined=tuple(sizes[1:]), together=True)
    return _fitted_joint(run, joint, run.cfg.correctness.depth.max_elements)


def _coupled(run: _Run, unrun: list[Depth]) -> Depth | None:
    """The sizes the problem could run at none alone, raised together (fitted to the budget),
    where there are two or more: groupnorm's channels need its num_groups to divide them, and
    neither ran raised alone. Kept in this worker's plan once its reference ran, in place of
    the sizes alone, which `_forget` dropped."""
    if len(unrun) < 2:
        return None
    joint = replace(unrun[0], joined=tuple(unrun[1:]), together=True)
    fitted = _fitted_joint(run, joint, run.cfg.correctness.depth.max_elements)
    plan = run.ev.depth_plans.get(plan_key(run))
    if fitted is not None and plan is not None and all(d.label != fitted.label for d in plan):
        plan.append(fitted)  # dropped again (`_forget`) where its reference fails too
    return fitted


def _judged(run: _Run, source: str, depth: Depth, trial: tuple[int, str], report: list,
            cpu_s: float, unrun: list[Depth] | None = None) -> tuple[Depth, Verdict, str] | None:
    """(the variant, its verdict, what it says) where `depth` refuses the candidate: not ok
    at a value tried, or out of time at the declared value and not ok at any retry's smaller
    one (a retry not judged, as where the problem fails there, leaves the timeout standing:
    red team rt53). `unrun` gathers the single sizes whose reference failed (`_coupled`)."""
    cfg = run.cfg.correctness.depth
    tried, limit = depth, cfg.timeout_s
    seen, job = _one(run, source, depth, trial, limit)
    report.append(seen)
    if seen.get("unrun") and depth.joined and not depth.together:
        # the problem cannot run every size of a joint variant at once (groupnorm's num_groups
        # of 8 beside the CPU's 12 channels): each size is judged alone, as far as it can be
        for part in _parts(depth):
            refused = _judged(run, source, part, trial, report, cpu_s, unrun)
            if refused is not None:
                return refused
        return None
    if seen.get("unrun") and not depth.joined and unrun is not None:
        unrun.append(depth)
    late = [f"not within {limit:g} s at the problem's declared {depth.describe()}"]
    ran_out = (tried, seen, limit) if seen.get("status") == "timeout" else None
    for _ in range(cfg.retries):
        if job is not None or seen.get("status") != "timeout":
            break
        smaller = _retry(tried, cfg.retry_shrink, cpu_s, cfg.retry_max_s)
        if smaller is None:
            break
        tried, limit = smaller, _retry_limit(cfg, smaller, cpu_s)
        seen, job = _one(run, source, tried, trial, limit)
        report.append({**seen, "retry_of": depth.value})
        at = ", ".join(f"{k}={v}" for k, v in tried.raised().items())
        late.append(f"nor within {limit:g} s at {at}" if seen.get("status") == "timeout"
                    else f"and not judged at {at}")
        if seen.get("status") == "timeout":
            ran_out = (tried, seen, limit)
    if job is not None:
        where = "declared " if tried is depth else ""
        note = "" if tried is depth else f" (the declared {depth.value} ran out of time)"
        return tried, job, f"not at the problem's {where}{tried.describe()}{note}"
    if ran_out is None or seen.get("status") == "ok":
        return None
    at, timed, limit = ran_out
    return at, _timeout(timed, cpu_s, limit), ", ".join(late)


def _retry(depth: Depth, shrink: int, cpu_s: float, most_s: float) -> Depth | None:
    """`depth` at `1/shrink` of its value (each size of a joint variant at `1/shrink` of its
    own), or less where its predicted time (`_predicted`) would pass `most_s` there (at least
    twice the CPU's value); None where nothing is below the value that ran out of time."""
    parts = _parts(depth)
    smaller = [replace(p, value=max(p.value // shrink, 2 * p.cpu)) for p in parts]
    while _predicted(cpu_s, smaller) > most_s and any(p.value > 2 * p.cpu for p in smaller):
        i = max(range(len(smaller)), key=lambda k: smaller[k].value / smaller[k].cpu)
        down = 1 << ((smaller[i].value - 1).bit_length() - 1)  # a power of two down
        smaller[i] = replace(smaller[i], value=max(down, 2 * smaller[i].cpu))
    if all(a.value >= b.value for a, b in zip(smaller, parts)):
        return None
    return replace(smaller[0], joined=tuple(smaller[1:]), together=depth.together)


def _parts(depth: Depth) -> list[Depth]:
    """The sizes a variant raises, each alone."""
    return [replace(depth, joined=(), together=False), *depth.joined]


def _predicted(cpu_s: float, parts: list[Depth]) -> float:
    """A generous time for one trial at these sizes: the CPU sizes' whole correctness phase
    (every trial and every autotune config's pinned forward: several times one trial) grown
    with each size, twice over."""
    return 2 * cpu_s * math.prod(p.value / p.cpu for p in parts)


def _retry_limit(cfg: DepthConfig, depth: Depth, cpu_s: float) -> float:
    """A retry's limit: its predicted time within `retry_time` x `timeout_s` and `retry_max_s`.
    A stall runs past any limit; this one is for a kernel slow at every size (fla's 48-config
    autotuned cumsum took 79 s at the CPU's sizes)."""
    return min(cfg.retry_max_s, max(cfg.retry_time * cfg.timeout_s, _predicted(cpu_s, _parts(depth))))


def _timeout(seen: dict[str, Any], cpu_s: float, limit: float) -> Verdict:
    """The candidate's `timeout` at a depth variant (the reference ran there)."""
    text = (f"Timeout: one forward at these sizes ran past the depth trials' {limit:g} s in Triton's "
            f"interpreter (all of the CPU sizes' trials together took {cpu_s:.3g} s); a size the CPU cannot "
            f"finish is not judged ok.")
    return Verdict(status="timeout", feedback=text, details={"depth_timeout": {k: seen[k] for k in ("size", "value")}})


def _one(run: _Run, source: str, depth: Depth, trial: tuple[int, str],
         timeout_s: float) -> tuple[dict[str, Any], Verdict | None]:
    """(what the report says of `depth`, its verdict where that refuses the candidate)."""
    sub = DepthRun(run, depth, trial, run.cfg.timeout_s)  # the reference's run: the evaluation's limit
    seen: dict[str, Any] = {"size": depth.label, "value": depth.value, "declared": depth.declared}
    if depth.joined:
        seen["raised"] = depth.raised()
    try:
        with sub.phase("reference"):
            ref = sub.reference()
    except ProblemFailed as exc:
        seen["skipped"] = "the reference did not run there: " + (str(exc).strip().splitlines() or [""])[-1][:200]
        seen["unrun"] = isinstance(exc, ProblemRaised)  # its own code raised there: not a timeout
        _forget(run, depth)
        return seen, None
    seen["out"] = _out_elements(ref)  # the output it grew to (`_output_joint`)
    sub.timeout_s, sub.deadline = timeout_s, time.monotonic() + timeout_s  # the candidate's: depth's own
    job = sub._candidate_job(source, ref, None)
    seen.update(status=job.status, seconds=round(sum(v for k, v in job.phase_seconds.items() if k != "total"), 3))
    if job.status == "ok":
        return seen, None
    if job.status == "timeout":
        return seen, None  # the caller's: a retry smaller, then the verdict
    if job.error_source in ("problem", "evaluator"):
        seen["skipped"] = "not judged there: " + (job.feedback or "").splitlines()[0][:200]
        return seen, None
    return seen, job


def _forget(run: _Run, depth: Depth) -> None:
    """Drop `depth` from this worker's plan for the problem: its reference failed there, and
    failures are not cached, so every later evaluation would spend the reference's whole limit
    again (level1/9's tall-skinny GEMM at M = 32768 has a 4 GiB output: its reference ran out
    of its 120 s in each evaluation; honest round s56e)."""
    plan = run.ev.depth_plans.get(plan_key(run))
    if plan is not None:  # a joint variant's sizes stay, each alone (`_judged`)
        run.ev.depth_plans[plan_key(run)] = [p for d in plan
                                              for p in (_parts(d) if d.label == depth.label and d.joined
                                                        and not d.together
                                                        else [] if d.label == depth.label else [d])]


def _refused(run: _Run, verdict: Verdict, depth: Depth, job: Verdict, where: str, report: list) -> Verdict:
    others = ", ".join(f"{k}={v}" for k, v in run.sizes.items() if k not in depth.names)
    text = (f"Correct at the CPU sizes, but {where} (the GPU runs the declared size; the others stay at "
            f"the CPU's{': ' + others if others else ''}):\n{job.feedback}")
    details = {**job.details, "depth": {"trials": report, "refused_at": depth.raised()},
               "cpu_sizes_verdict": {"status": verdict.status, "speedup": verdict.speedup}}
    return run.finish(judge.Outcome(job.status, text, hacks=list(job.hacks), details=details), sizes_note=False)
