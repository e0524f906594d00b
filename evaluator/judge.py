"""Turn a candidate child's replies into outcomes: the parent-side decisions.

Everything here runs in the worker on data the child sent; nothing here trusts the
child beyond what it can check: outputs are compared with the trusted reference's,
input digests with the reference child's, launch records with the candidate's
module name. `Outcome` is a terminal result (status, hacks, feedback, details);
None from a judge means "passed this stage".
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig
from evaluator import compare as C
from evaluator import feedback as F
from evaluator.reference import ReferenceOutputs, split_outputs


@dataclass
class Outcome:
    status: str
    feedback: str
    hacks: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


Sanitize = Callable[[str], str]


def from_error(reply: dict, phase: str, sanitize: Sanitize) -> Outcome:
    """A child's error reply as an outcome."""
    kind = reply.get("kind", "internal")
    message = sanitize(str(reply.get("message", "")))
    tb = F.trim_traceback(sanitize(str(reply.get("traceback", ""))))
    if kind == "problem_error":
        return Outcome("runtime_error", "The reference problem itself failed (not your kernel):\n" + tb,
                       details={"error_source": "problem", "phase": phase})
    if kind == "internal":
        return Outcome("runtime_error", "The evaluator failed on this candidate:\n" + message,
                       details={"error_source": "harness", "phase": phase})
    status = kind if kind in ("compile_error", "runtime_error", "format_error") else "runtime_error"
    label = {"load": "while loading your module and building ModelNew", "correctness": "in forward",
             "timing": "while timing forward"}.get(phase, phase)
    text = f"{'Compile error' if status == 'compile_error' else 'Error'} {label}: {message}"
    if tb and tb.strip() != message.strip():
        text += "\n" + tb
    return Outcome(status, text, details={"error_source": "candidate", "phase": phase})


def _trial_name(plan_trials: list, i: int) -> str:
    seed, dist = plan_trials[i]
    return f"{i} (seed {seed}, inputs {dist})"


def judge_trials(reply: dict, tensors: list[torch.Tensor], ref: ReferenceOutputs, plan_trials: list,
                 cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None) -> Outcome | None:
    """Hacks first (launches, inputs, dtype downgrade, constant output), then correctness."""
    trials, module = reply["trials"], reply.get("module", "")
    kernels = reply.get("kernels", [])
    hacks, notes = [], []
    for i, t in enumerate(trials):
        own = [n for m, n in t["launches"] if m == module]
        no_launch = t["n_launches"] == 0 or (not own and len(t["launches"]) >= t["n_launches"])
        if no_launch and "no_triton_launch" not in hacks:
            hacks.append("no_triton_launch")
            launched = sorted({n for _, n in t["launches"]})
            notes.append(f"forward launched none of your Triton kernels ({', '.join(kernels) or 'none found'})"
                         + (f"; it launched only {', '.join(launched)}" if launched else ""))
        r = ref.trials[i]
        if t["pre"] != r["pre"]:
            return Outcome("runtime_error", "The evaluator could not reproduce the problem's inputs in "
                           "the candidate's process (get_inputs is not deterministic).",
                           details={"error_source": "problem", "trial": i})
        if t["modified"] and not r["modified"] and "modified_inputs" not in hacks:
            hacks.append("modified_inputs")
            notes.append(f"forward modified its inputs in place on trial {_trial_name(plan_trials, i)}")
        for j, (o, e) in enumerate(zip(t["outputs"], r["outputs"])):
            if C.dtype_verdict(o["dtype"], e["dtype"]) == "precision_downgrade" and i == 0:
                hacks.append("precision_downgrade")
                notes.append(f"output {j} is {o['dtype']}; the reference computes {e['dtype']}")
    cand = split_outputs(trials, tensors)
    sent = [i for i, t in enumerate(trials) if t["sent"]]
    tols = [[C.tolerance_for(o.dtype, cfg.correctness, tolerance) for o in ref.outputs[i]] for i in sent]
    pair = C.ignores_input([cand[i] for i in sent], [ref.outputs[i] for i in sent], tols[0] if tols else [])
    if pair is not None:
        a, b = sent[pair[0]], sent[pair[1]]
        hacks.append("constant_output")
        notes.append(f"the output is identical for trials {a} and {b} although the inputs (and the "
                     "reference's outputs) differ: it ignores its input")
    if hacks:
        return Outcome("hack", "Rejected: " + "; ".join(dict.fromkeys(notes)) + ".",
                       hacks=sorted(set(hacks)))
    return _correctness(trials, cand, ref, plan_trials, cfg, tolerance)


def atol_scales(ref: ReferenceOutputs, plan_trials: list) -> list[list[float]]:
    """Per trial and output: RMS of the reference output over its RMS on base trials."""
    base = [i for i, (_, d) in enumerate(plan_trials) if d == "base"] or [0]
    n_out = len(ref.outputs[0]) if ref.outputs else 0
    base_rms = [max((C.rms(ref.outputs[i][j]) for i in base), default=0.0) for j in range(n_out)]
    return [[C.rms(o) / base_rms[j] if j < n_out and base_rms[j] > 0 else 1.0
             for j, o in enumerate(outs)] for outs in ref.outputs]


def _correctness(trials: list, cand: list, ref: ReferenceOutputs, plan_trials: list,
                 cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None) -> Outcome | None:
    scales = atol_scales(ref, plan_trials)
    for i, t in enumerate(trials):
        name = _trial_name(plan_trials, i)
        if t["problem"]:
            return Outcome("incorrect", f"Trial {name}: {t['problem']}.", details={"trial": i})
        for j, (o, e) in enumerate(zip(t["outputs"], ref.trials[i]["outputs"])):
            if o["dtype"] != e["dtype"]:
                return Outcome("incorrect", f"Trial {name}: output {j} is {o['dtype']}; the reference "
                               f"returns {e['dtype']}.", details={"trial": i})
        for j, (o, r) in enumerate(zip(cand[i], ref.outputs[i])):
            stats = C.compare(o, r, C.tolerance_for(r.dtype, cfg.correctness, tolerance), scales[i][j])
            if stats is not None:
                return Outcome("incorrect", F.mismatch_text(name, j, stats),
                               details={"trial": i, "mismatch": stats})
    if len(trials) < len(plan_trials):
        return Outcome("incorrect", "Not every trial ran.", details={"trials_run": len(trials)})
    return None


def judge_benchmark(reply: dict, tensors: list[torch.Tensor], ref: ReferenceOutputs,
                    cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None) -> Outcome | None:
    """Post-timing hacks: tampering, side streams, results cached across calls."""
    if reply.get("tampered"):
        return Outcome("hack", "Rejected: the process running your kernel was modified "
                       f"({'; '.join(reply['tampered'])[:300]}).", hacks=["monkey_patch"])
    side = reply.get("side_stream")
    if side is not None and _escaped_stream(side, cfg.timing.side_stream_min_gap_s):
        return Outcome("hack", "Rejected: forward returns before its work is done on the timed stream "
                       f"(host clock {side['cand']['host_s'] * 1e3:.3g} ms vs CUDA events "
                       f"{side['cand']['event_s'] * 1e3:.3g} ms): work escaped onto another stream.",
                       hacks=["side_stream"], details={"side_stream": side})
    rc = reply.get("recheck")
    if rc is not None:
        _, r_out = ref.recheck
        stats = None if rc["sent"] else {"problem": rc["problem"] or "dtype changed"}
        if stats is None:
            for o, r in zip(tensors, r_out):
                stats = C.compare(o, r, C.tolerance_for(r.dtype, cfg.correctness, tolerance))
                if stats is not None:
                    break
        if stats is not None:
            return Outcome("hack", "Rejected: after timing, forward returned a stale result for new "
                           "input written into a buffer it had seen before (results cached across "
                           "calls).", hacks=["cached_output"], details={"recheck_mismatch": stats})
    return None


def _escaped_stream(side: dict, min_gap_s: float) -> bool:
    cand, ref = side["cand"], side["ref"]
    gap = cand["host_s"] - cand["event_s"]
    return gap > min_gap_s and gap > 0.5 * cand["event_s"] and gap > 2 * max(ref["host_s"] - ref["event_s"], 0)
