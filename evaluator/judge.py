"""Turn what children sent into outcomes: the worker's decisions.

Everything here runs in the worker on data a child sent; nothing is taken on a child's
word. Outputs are compared with the trusted reference's; input digests were reported
before the candidate's module existed; a candidate child's error is the candidate's,
whatever kind it claims (once its module is imported, "the problem failed" or "the
harness failed" are claims it could make up). `Outcome` is a terminal result (status,
hacks, feedback, details); None from a judge means "passed this stage".
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import torch

from common.config.evaluator import EvaluatorConfig
from evaluator import compare as C
from evaluator import feedback as F
from evaluator import noise_floor
from evaluator.host_limits import LAUNCH_INTS, judge_host_limits  # noqa: F401 (judge's API)
from evaluator.output_facts import all_finite, peak, rms
from evaluator.reference import ReferenceOutputs, split_outputs


@dataclass
class Outcome:
    status: str
    feedback: str
    hacks: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    error_source: str = ""  # common/verdict.py; "" on a failure: the candidate's

    @property
    def blame(self) -> str:
        """The verdict's error_source: "" on ok, else whose failure (the candidate's unless said)."""
        return self.error_source or ("" if self.status == "ok" else "candidate")


Sanitize = Callable[[str], str]
_LABELS = {"load": "while loading your module and building ModelNew", "correctness": "in forward",
           "knockout": "in forward", "timing": "while timing forward",
           "profile": "while profiling forward"}


def from_error(reply: dict, phase: str, sanitize: Sanitize) -> Outcome:
    """A candidate child's error reply, after its module was imported: the candidate's."""
    kind = reply.get("kind", "internal")
    message = F.untrusted(sanitize(str(reply.get("message", ""))))
    tb = F.untrusted(F.trim_traceback(sanitize(str(reply.get("traceback", "")))))
    status = kind if kind in ("compile_error", "runtime_error", "format_error") else "runtime_error"
    if phase != "load" and status == "format_error":
        status = "runtime_error"
    text = (f"{'Compile error' if status == 'compile_error' else 'Error'} {_LABELS.get(phase, phase)} "
            f"(your program's own text, each line after '{F.QUOTE.strip()}'):\n{F.quoted(message)}")
    if tb and tb.strip() != message.strip():
        text += "\n" + F.quoted(tb)
    details = {"phase": phase, "claimed_kind": kind}
    if reply.get("device_oom") is True:  # a claim (it only buys a run with a bigger device share)
        details["device_oom"] = True
    return Outcome(status, text, details=details, error_source="candidate")


def _trial_name(plan_trials: list, i: int) -> str:
    seed_index, dist = i, plan_trials[i][1]
    return f"{seed_index} (inputs {dist})"


def judge_trials(reply: dict, tensors: list[torch.Tensor], ref: ReferenceOutputs, plan_trials: list,
                 kernels: list[str], module: str, cfg: EvaluatorConfig,
                 tolerance: Mapping[str, float] | None, facts: dict | None = None,
                 device: str = "cuda", device_branch: bool = False,
                 prejudged: Mapping[int, Any] | None = None) -> Outcome | None:
    """Hacks first (launches, inputs, dtype downgrade, constant output), then correctness."""
    trials = reply["trials"]
    hacks, notes = [], []
    if device == "cpu" and device_branch and all(t["n_launches"] == 0 for t in trials):
        # Under the interpreter the inputs are CPU tensors: a file whose forward launches its
        # kernels only for CUDA tensors (a fallback branch, as many honest files have) ran
        # none of them. Nothing was evaluated; not called a hack (it earns nothing either way).
        return Outcome("runtime_error", "None of your Triton kernels ran: the CPU evaluator runs "
                       "Triton's interpreter on CPU tensors, and your forward took a path without "
                       "them (a fallback branch: for non-CUDA tensors, this dtype, or training mode?). Launch your "
                       "kernels whatever the tensors' device, or evaluate on a GPU.", details={"cpu_fallback": True})
    for i, t in enumerate(trials):
        own = [n for m, n in t["launches"] if m == module]
        if (t["n_launches"] == 0 or (not own and len(t["launches"]) >= t["n_launches"])) \
                and "no_triton_launch" not in hacks:
            hacks.append("no_triton_launch")
            launched = sorted({n for _, n in t["launches"]})
            notes.append(f"forward launched none of your Triton kernels "
                         f"({F.untrusted(', '.join(map(str, kernels)))[:300] or 'none found'})"
                         + (f"; it launched only {F.untrusted(', '.join(launched))[:300]}" if launched else ""))
        r = ref.trials[i]
        if set(t["modified"]) - set(r["modified"]) and "modified_inputs" not in hacks:
            hacks.append("modified_inputs")
            notes.append(f"forward modified its inputs in place on trial {_trial_name(plan_trials, i)}")
        for j, (o, e) in enumerate(zip(t["outputs"], r["outputs"])):
            if i == 0 and C.dtype_verdict(o["dtype"], e["dtype"]) == "precision_downgrade":
                hacks.append("precision_downgrade")
                notes.append(f"output {j} is {F.untrusted(str(o['dtype']))[:40]}; the reference computes {e['dtype']}")
    cand, cand_inputs, _ = split_outputs(trials, tensors)
    sent = [i for i, t in enumerate(trials) if not t.get("problem") and _shapes_match(t, ref.trials[i])]
    tols = [[C.tolerance_for(o.dtype, cfg.correctness, tolerance) for o in ref.outputs[i]] for i in sent]
    pair = C.ignores_input([cand[i] for i in sent], [ref.outputs[i] for i in sent], tols[0] if tols else [])
    if pair is not None:
        a, b = sent[pair[0]], sent[pair[1]]
        hacks.append("constant_output")
        notes.append(f"the output is identical for trials {a} and {b} although the inputs (and the "
                     "reference's outputs) differ: it ignores its input")
    if hacks:
        return Outcome("hack", "Rejected: " + "; ".join(dict.fromkeys(notes)) + ".", hacks=sorted(set(hacks)))
    return _correctness(trials, cand, cand_inputs, ref, plan_trials, cfg, tolerance, facts, prejudged)


def _shapes_match(t: dict, r: dict) -> bool:
    return len(t["outputs"]) == len(r["outputs"]) and all(
        o["shape"] == e["shape"] and o["dtype"] == e["dtype"] for o, e in zip(t["outputs"], r["outputs"]))


def base_rms(ref: ReferenceOutputs, plan_trials: list) -> list[float]:
    """Per output: its largest RMS over the base-distribution trials."""
    return [b.rms for b in base_facts(ref, plan_trials)]


class Base(NamedTuple):
    """One output on the problem's own inputs (the base trials): its largest RMS, its largest
    finite magnitude, and its largest precision deviation there (TF32's, or the float32 forward's
    for a half output: evaluator.precision; or None)."""

    rms: float
    peak: float
    tf32: tuple | None
    noise: tuple[float, float] | None = None  # the reference's largest noise there: (norm, residual)


SPIKE_REACH = 2.0
"""On spiked inputs, elements within this many times the output's largest magnitude on the
problem's own inputs are judged again as on those inputs (atol unscaled, norms their own,
TF32's deviation there): a spike inflates the RMS that scales atol and the norm the bounds
are relative to, and a kernel that found the spike (one cheap pass) ran its matmul in
bfloat16 everywhere else and was ok (red team, session 14)."""


def base_facts(ref: ReferenceOutputs, plan_trials: list) -> list[Base]:
    """Per output, its Base; computed once per cached reference (a GiB output's RMS and
    largest magnitude are seconds of the worker's time, and every evaluation asks twice)."""
    if ref.base is not None:
        return ref.base
    base = [i for i, (_, d) in enumerate(plan_trials) if d == "base" and i < len(ref.outputs)] or [0]
    n_out = len(ref.outputs[0]) if ref.outputs else 0
    facts = []
    for j in range(n_out):
        devs = [ref.tf32[i][j] for i in base if i < len(ref.tf32) and j < len(ref.tf32[i])
                and _deviation(ref.tf32[i][j])]
        tf32 = tuple(max(d[k] if k < len(d) else d[1] for d in devs) for k in range(3)) if devs else None
        noises = [q for i in base if j < len(n := ref.trials[i].get("noise") or [])
                  and (q := noise_floor.noise_pair(n[j])) is not None] if len(ref.trials) == len(ref.outputs) else []
        facts.append(Base(max(ref_fact(ref, i, j, "rms") for i in base),
                          max(ref_fact(ref, i, j, "peak") for i in base), tf32,
                          (max(q[0] for q in noises), max(q[1] for q in noises)) if noises else None))
    ref.base = facts
    return facts


_MEASURE = {"rms": rms, "peak": peak, "finite": all_finite}  # one fact's own pass, not all three


def ref_fact(ref: ReferenceOutputs, i: int, j: int, name: str) -> Any:
    """A fact about trial i's output j ("rms", "peak" or "finite": output_facts.output_facts), as
    the reference child measured it where its outputs were made (on the device, in no time:
    each was a pass of the worker's CPU over GiBs, ~20 s of a KernelBench sweep's 470); from
    the tensor where the child sent none."""
    facts = ref.trials[i].get("facts") if i < len(ref.trials) else None
    if isinstance(facts, list) and j < len(facts) and isinstance(facts[j], dict) and name in facts[j]:
        return facts[j][name]
    return _MEASURE[name](ref.outputs[i][j])


def atol_scales(ref: ReferenceOutputs, plan_trials: list, rms: list[float] | None = None) -> list[list[float]]:
    """Per trial and output: RMS of the reference output over its RMS on base trials;
    computed once per cached reference (seconds for GiB outputs, every evaluation asked)."""
    if ref.scales is not None:
        return ref.scales
    rms = base_rms(ref, plan_trials) if rms is None else rms
    ref.scales = [[ref_fact(ref, i, j, "rms") / rms[j] if j < len(rms) and rms[j] > 0 else 1.0
                   for j in range(len(outs))] for i, outs in enumerate(ref.outputs)]
    return ref.scales


def _shape_problem(t: dict, r: dict) -> str | None:
    if len(t["outputs"]) != len(r["outputs"]):
        return f"forward returned {len(t['outputs'])} output(s); the reference returns {len(r['outputs'])}"
    for j, (o, e) in enumerate(zip(t["outputs"], r["outputs"])):
        if o["shape"] != e["shape"]:
            return f"output {j} has shape {F.untrusted(str(o['shape']))[:200]}; the reference's is {e['shape']}"
        if o["dtype"] != e["dtype"]:
            return f"output {j} is {F.untrusted(str(o['dtype']))[:40]}; the reference returns {e['dtype']}"
    return None


def match(out: torch.Tensor, strict: torch.Tensor, tf32: tuple[float, ...] | None, cfg: EvaluatorConfig,
          tolerance: Mapping[str, float] | None, scale: float = 1.0, facts: dict | None = None,
          few: float = 0.0, base: Base | None = None, noise: Any = None, rest_dev: Any = None) -> dict | None:
    """None when `out` matches the strict reference, or (float32) the precision contract:
    within what TF32 mode moves the reference (`tf32`, compare.tf32_deviation; then
    facts["precision"] becomes "tf32"); else the strict mismatch. A float16/bfloat16 output's
    strict tolerance is itself held to its precision contract (`tf32` is then the float32
    forward's deviation, compare.half_tolerance). `noise`: the reference's own noise on these
    inputs, [norm, residual] (noise_floor.NOISE_FLOOR). On spiked inputs (`base`), the rest
    may also show the precision deviation the reference measured over that same rest on
    these inputs (`rest_dev`, precision.Deviations.rest): TF32 rounds the spike's terms
    wherever the spike reaches, and an element that sums them back to the problem's scale
    keeps that error (an honest TF32 MLP and ReLU attention on the H200, session 27)."""
    tol, contract = contracts(strict.dtype, noise_floor.floored(C.tolerance_for(strict.dtype, cfg.correctness, tolerance),
                                                      noise), tf32, tolerance)
    stats, tf32_met = _judged(out, strict, tol, contract, scale, few)
    if tf32_met and facts is not None:
        facts["precision"] = "tf32"
    if stats is not None or base is None or tol is None or base.peak <= 0:
        return stats
    within = SPIKE_REACH * base.peak  # spiked inputs: the rest, judged as on the problem's own
    # the spike's noise is no floor for the elements beside it: the problem's own inputs' is
    floor = base.noise or (0.0, 0.0)
    # (nor is the spike's rounding a floor for the rest's elements)
    tol = replace(tol, noise=noise_floor.NOISE_FLOOR * floor[0], noise_residual=noise_floor.NOISE_FLOOR * floor[1],
                  precision=math.inf, atol_floor=0.0)
    measured = list(rest_dev) if _deviation(rest_dev) else None
    if measured is not None and float(measured[0]) > within:
        # the precision itself moves an element of the rest past the rest's own bound on these
        # inputs: rounding decides its value (ReLU attention at KernelBench's size on the H200: a
        # score that cancels to ~0 among the spike's 1e4-sized terms, relu'd, times the spike's
        # value, 1e5 off in the candidate and in TF32's own run), so the rest is not judged here;
        # the whole output is, the base trials and their timed runs are
        return None
    allowed = base.tf32 if measured is None else (
        measured if base.tf32 is None else [max(float(a), float(b)) for a, b in zip(base.tf32, measured)])
    tol, contract = contracts(strict.dtype, tol, allowed, tolerance)
    rest, _ = _judged(out, strict, tol, contract, 1.0, few, within)
    if rest is not None:
        rest["where"] = f"elements within {SPIKE_REACH:g}x the largest output on the problem's own inputs"
    return rest


def contracts(dtype: torch.dtype, tol: Any, deviation: Any, tolerance: Mapping[str, float] | None) -> tuple:
    """(the strict tolerance, the TF32 contract's or None) for an output of `dtype` given its
    precision deviation: a float32 output may instead meet TF32's allowance; a half one's
    strict tolerance is held to its own precision's (compare.half_tolerance)."""
    if tol is None or not _deviation(deviation):
        return tol, None
    if dtype == torch.float32:
        return tol, C.tf32_tolerance(tol, deviation)
    return C.half_tolerance(tol, dtype, deviation, tolerance), None


def _judged(out: torch.Tensor, strict: torch.Tensor, tol: Any, contract: Any, scale: float,
            few: float, within: float | None = None) -> tuple[dict | None, bool]:
    """(strict mismatch or None, whether only the TF32 contract was met). The fast checks
    come first, the contract's too: an honest TF32 kernel at real sizes is judged in float32
    passes, and the exact float64 statistics run only for an output that fails both."""
    if tol is None:
        return C.compare(out, strict, tol), False
    fast = C.fast_matches(out, strict, [tol] if contract is None else [tol, contract], scale, within)
    if fast[0]:
        return None, False
    if contract is not None and fast[1]:
        return None, True
    stats = C.compare(out, strict, tol, scale, few, within, fast=False)
    if stats is not None and contract is not None \
            and C.compare(out, strict, contract, scale, few, within, fast=False) is None:
        return None, True
    return stats, False


def _deviation(d: Any) -> bool:
    """[max, norm] (a reference cached before the residual was measured) or [max, norm, residual]."""
    return isinstance(d, (list, tuple)) and len(d) in (2, 3) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in d)


def _correctness(trials: list, cand: list, cand_inputs: list, ref: ReferenceOutputs, plan_trials: list,
                 cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None,
                 facts: dict | None = None, prejudged: Mapping[int, Any] | None = None) -> Outcome | None:
    """The first trial, in plan order, whose outputs do not match (`prejudged`: trial ->
    (outcome, precision) from `judge_trial`, judged while later trials still ran)."""
    for i, t in enumerate(trials):
        if prejudged is not None and i in prejudged:
            outcome, precision = prejudged[i]
            if precision == "tf32" and facts is not None:
                facts["precision"] = "tf32"
        else:
            outcome = judge_trial(i, t, cand[i], cand_inputs[i], ref, plan_trials, cfg, tolerance, facts)
        if outcome is not None:
            return outcome
    if len(trials) < len(plan_trials):
        return Outcome("incorrect", "Not every trial ran.", details={"trials_run": len(trials)})
    return None


def judge_trial(i: int, t: dict, cand: list, cand_inputs: list, ref: ReferenceOutputs, plan_trials: list,
                cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None,
                facts: dict | None = None) -> Outcome | None:
    """Trial i's outputs (and in-place effects) against the reference's: None when they match."""
    bases = base_facts(ref, plan_trials)
    scales = atol_scales(ref, plan_trials, [b.rms for b in bases])
    name = _trial_name(plan_trials, i)
    problem = _shape_problem(t, ref.trials[i]) or (
        "\n" + F.quoted(F.untrusted(str(t["problem"])), 400) if t.get("problem") else None)
    if problem:
        return Outcome("incorrect", f"Trial {name}: {problem}.", details={"trial": i})
    overflow = bool(ref.trials[i].get("overflow"))
    if ref.trials[i].get("finite") is False and not overflow:
        return None  # a spike the problem's own code overflows on: nothing to compare
    pairs = list(zip(cand, ref.outputs[i]))
    if ref.trials[i]["modified"]:  # an in-place reference: its effect on its inputs is output too
        if len(cand_inputs) != len(ref.inputs_after[i]):
            return Outcome("incorrect", f"Trial {name}: the reference modifies input(s) "
                           f"{ref.trials[i]['modified']} in place; yours does not do the same.",
                           details={"trial": i})
        pairs += list(zip(cand_inputs, ref.inputs_after[i]))
    if overflow:  # inf x 0 in another order: NaN where the reference overflowed or is 0 is not judged
        pairs = [(_overflow_agreed(o, r), r) for o, r in pairs]
    alts = ref.tf32[i] if i < len(ref.tf32) else []
    noise = ref.trials[i].get("noise") or []
    rests = ref.trials[i].get("tf32_rest") or []
    for j, (o, r) in enumerate(pairs):
        scale = scales[i][j] if j < len(scales[i]) else 1.0
        spiked = str(ref.trials[i].get("transform", "")).startswith("spike")
        stats = match(o, r, alts[j] if j < len(alts) else None, cfg, tolerance, scale, facts,
                      C.SPIKED_FEW if spiked else 0.0,
                      bases[j] if spiked and j < len(ref.outputs[i]) and j < len(bases) else None,
                      noise[j] if j < len(noise) and j < len(ref.outputs[i]) else None,
                      rests[j] if j < len(rests) and j < len(ref.outputs[i]) else None)
        if stats is not None:
            return Outcome("incorrect", F.mismatch_text(name, j, stats),
                           details={"trial": i, "mismatch": stats})
    return None


def _overflow_agreed(out: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    """On a trial where the problem's own forward overflows (reference_phase._unjudged_overflow),
    the candidate's NaN where the reference holds 0, an infinity or NaN, and any value where the
    reference holds NaN, take the reference's value: the order of the products decides those.
    Every other element is judged (a scan that wrote zeros where the reference overflowed to
    inf was ok while the whole trial went unjudged: red team rt23b)."""
    if out.shape != ref.shape or out.dtype != ref.dtype or not out.is_floating_point():
        return out
    ref = ref.to(out.device)
    undecided = (torch.isnan(out) & ((ref == 0) | ~torch.isfinite(ref))) | torch.isnan(ref)
    return torch.where(undecided, ref, out) if bool(undecided.any()) else out


def judge_knockout(reply: dict, tensors: list[torch.Tensor], ref: ReferenceOutputs,
                   cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None) -> Outcome | None:
    """A forward with every Triton launch skipped must NOT still be right."""
    t = reply["trials"][0]
    if not t.get("error") and t["n_launches"] == 0:
        # the same inputs as a trial that launched its kernels, and fresh memory as noisy as
        # there: a forward that now tries no launch at all told this run apart
        return Outcome("hack", "Rejected: in the run where your Triton kernels were to be skipped, "
                       "forward did not even try to launch them: it behaves differently when its "
                       "kernels are checked.", hacks=["triton_not_needed"])
    if t.get("error") or t.get("problem") or _shape_problem(t, ref.trials[0]):
        return None  # without its kernels the forward fails or differs: they matter
    outs = split_outputs(reply["trials"], tensors)[0][0]
    for o, r in zip(outs, ref.knockout):
        if not C.matches(o, r, C.tolerance_for(r.dtype, cfg.correctness, tolerance)):
            return None
    return Outcome("hack", "Rejected: forward's result is still correct when none of your Triton "
                   "kernels run (they were skipped and fresh memory held random values): the kernels do "
                   "no work the output depends on.", hacks=["triton_not_needed"])


def judge_torch_knockout(knock: tuple | None, ref: ReferenceOutputs, cfg: EvaluatorConfig,
                         tolerance: Mapping[str, float] | None) -> Outcome | None:
    """Strict policy: with every PyTorch compute operator returning noise (Triton kernels
    running normally), the forward must still be right: its kernels compute the result."""
    problem = "it did not run"
    if knock is not None:
        reply, tensors = knock
        t = reply["trials"][0]
        if t.get("error"):
            problem = f"it failed:\n{F.quoted(F.untrusted(str(t['error'])), 300)}\n"
        elif t.get("problem") or _shape_problem(t, ref.trials[0]):
            problem = "\n" + F.quoted(F.untrusted(str(t.get("problem"))), 300) + "\n" if t.get("problem") \
                else _shape_problem(t, ref.trials[0])
        else:
            outs = split_outputs(reply["trials"], tensors)[0][0]
            alts = ref.torch_knockout_tf32
            bad = [j for j, (o, r) in enumerate(zip(outs, ref.torch_knockout))
                   if match(o, r, alts[j] if j < len(alts) else None, cfg, tolerance) is not None]
            if not bad:
                return None
            problem = f"output {bad[0]} was wrong"
    return Outcome("hack", "Rejected under the strict policy: in a run where every PyTorch compute "
                   "operator returned noise (your Triton kernels ran normally; allocation, views and "
                   f"copies worked), {problem}: PyTorch, not your kernels, computes part of the result "
                   "(a value PyTorch computed is noise in that run, read to the host or not: hand your "
                   "kernels tensors, not Python numbers read from them).",
                   hacks=["torch_computes"])


def judge_provenance(trials: list[dict], strict: bool, knockout_raised: bool,
                     max_host_reads: int | None = None, max_host_made: int | None = None) -> Outcome | None:
    """Which memory PyTorch computed (forward_watch.Provenance), per checked forward. Strict: no
    Triton kernel is handed it and forward does not return it (`torch_computes`). Paper:
    PyTorch may compute, but a forward that returns what PyTorch computed and whose
    knock-out run only raised has kernels that decide whether it runs, not what it returns
    (`triton_not_needed`); not where PyTorch computed it from memory the kernels wrote (a
    Triton argmin's indices, gathered by torch: random indices in the knock-out raise)."""
    outcome = judge_host_limits(trials, max_host_reads, max_host_made)
    if outcome is not None:
        return outcome
    reports = [t["provenance"] for t in trials if isinstance(t.get("provenance"), dict)]
    if strict:
        found = next((r.get("handed") or r.get("returned") or r.get("returned_after_kernels") for r in reports
                      if r.get("handed") or r.get("returned") or r.get("returned_after_kernels")), None)
        if found:
            return Outcome("hack", f"Rejected under the strict policy: {F.untrusted(str(found))[:300]}: "
                           "PyTorch, not your kernels, computes part of the result. " + F.strict_instead(str(found)),
                           hacks=["torch_computes"])
    elif knockout_raised:
        found = next((r["returned"] for r in reports if r.get("returned")), None)
        if found:
            return Outcome("hack", f"Rejected: {F.untrusted(str(found))[:300]}, and with your Triton kernels "
                           "skipped forward raised instead of returning a wrong result: the kernels decide "
                           "whether forward runs, not what it returns.", hacks=["triton_not_needed"])
    return None


def _chunk_noise(base: Base | None, revealed: torch.Tensor, shapes: Any, j: int) -> tuple | None:
    """The base trials' noise norm of output j, scaled to the share of it revealed (a few
    chunks of a big output: noise spreads over the elements, so a chunk holds sqrt of its
    share); None where unknown."""
    if base is None or not base.noise:
        return None
    whole = revealed.numel()
    if isinstance(shapes, (list, tuple)) and j < len(shapes) and isinstance(shapes[j], (list, tuple)):
        whole = max(math.prod(int(d) for d in shapes[j]), 1)
    share = math.sqrt(min(revealed.numel() / whole, 1.0))
    return base.noise[0] * share, base.noise[1] * share


def judge_reveals(cand: dict[int, list[torch.Tensor]], ref: dict[int, list[torch.Tensor]],
                  ref_tf32: dict[int, list[torch.Tensor]], cfg: EvaluatorConfig,
                  tolerance: Mapping[str, float] | None, facts: dict | None = None,
                  n_outputs: Mapping[int, int] | None = None, cand_shapes: Mapping[int, Any] | None = None,
                  ref_shapes: Mapping[int, Any] | None = None,
                  base: Sequence[Base] = (), spiked: bool | frozenset[int] = False,
                  ref_rest: Mapping[int, list] | None = None) -> Outcome | None:
    """Outputs of randomly chosen timed runs, and their inputs as the forward left them, must
    match the reference's for the same inputs (`n_outputs`: how many of the reference's
    revealed tensors are outputs; the rest are its inputs after the forward). A big tensor
    is revealed as the same chunks on both sides (flat); `*_shapes` are the whole ones'.
    An output's atol follows its scale as on the trials (`base`: each output on the base
    trials, `Base`), and on spiked inputs its elements at the problem's own scale are judged
    as there (`match`): on spiked inputs a backward-stable kernel is off by ~eps x the spike
    wherever the spike reaches (an exclusive cumsum as inclusive - x), which the spike trial
    accepts, so a timed run on the same kind of inputs must too (`spiked`: all of them, or the
    runs whose inputs were spiked; `ref_rest`: per run, the reference's precision deviation
    over that rest, as `match`'s `rest_dev`)."""
    for run in sorted(cand):
        outs, want, alts = cand[run], ref.get(run, []), ref_tf32.get(run, [])
        rests = (ref_rest or {}).get(run) or []
        on_spike = run in spiked if isinstance(spiked, frozenset) else spiked
        first_input = (n_outputs or {}).get(run, len(want))
        shapes_differ = (cand_shapes or {}).get(run) != (ref_shapes or {}).get(run)
        if shapes_differ or len(outs) != len(want) or any(o.shape != w.shape or o.dtype != w.dtype
                                                          for o, w in zip(outs, want)):
            stats: dict | None = {"problem": "different outputs"}
        else:
            # inputs are the same draw on both sides: bit-equal unless a forward wrote them
            own = [base[j] if j < first_input and j < len(base) else None for j in range(len(want))]
            scale = [rms(w) / b.rms if b is not None and b.rms > 0 else 1.0 for w, b in zip(want, own)]
            noise = [_chunk_noise(b, w, (ref_shapes or {}).get(run), j) for j, (w, b) in enumerate(zip(want, own))]
            bad = [(j, s) for j, (o, w) in enumerate(zip(outs, want))
                   if not (j >= first_input and torch.equal(o, w))
                   and (s := match(o, w, alts[j] if j < len(alts) else None, cfg, tolerance,
                                   scale[j], facts, C.SPIKED_FEW if on_spike else 0.0,
                                   own[j] if on_spike else None, noise[j],
                                   rests[j] if j < len(rests) else None)) is not None]
            stats = bad[0][1] if bad else None
            if bad and bad[0][0] >= first_input:
                return Outcome("hack", f"Rejected: while being timed, forward left its input "
                               f"{bad[0][0] - first_input} other than the reference leaves it (timed run "
                               f"{run}, checked after it ran): it behaves differently when timed.",
                               hacks=["modified_inputs"],
                               details={"timed_mismatch": stats})
        if stats is not None:
            return Outcome("hack", f"Rejected: while being timed, forward returned a wrong result (timed "
                           f"run {run}, checked after it ran): it behaves differently when timed.",
                           hacks=["timed_output_mismatch"], details={"timed_mismatch": stats})
    return None
