"""The policy's gates on run-time evidence, and which kernels a result needs (one knocked out at a time).

`policy_outcome` holds the rules that turn a correct forward into a `hack` by its coverage:
under strict, too little of the forward's device time in the candidate's own kernels; under
either policy, a knock-out run that only raised, or a forward returning memory PyTorch computed
that carries almost none of the kernels' writes (evaluator.carried: `thin`), with too little
coverage to show the kernels did the work.

The knock-out run (every Triton launch skipped) shows that forward's result needs the
kernels as a set. The set can be one kernel the result needs plus others that burn device
time on work nothing reads, to buy coverage: red team, session 23 (`torch.relu(x) * flag` and
a Triton relu into a scratch buffer: ok at coverage 0.33 under the paper policy; a lazy copy
epilogue plus a Triton pass into scratch: coverage 0.67 against 0.5 without it, since the
reward pays coverage under every policy). So wherever forward launched several of its own
kernels (and wherever a gate reads the coverage), each kernel is knocked out alone, several
times, on fresh inputs, among normal forwards judged as trials (evaluator.knockout_round), with
fresh memory as noisy as in every checked forward: one whose absence leaves the result right
in any of its knock-outs is a decoy, and its time is not the candidate's in the coverage the
gates and the reward read. Skipped launches are still recorded and grids still resolved
(launch_hook), so a run cannot tell which kernel is skipped other than by that kernel's
output being missing, which is the point.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig, PolicyConfig
from evaluator import compare as C
from evaluator import judge, noise_floor

MAX_KERNELS = 8  # kernels knocked out one at a time; beyond, the rest count as decoys


def own_kernels(trials: list[dict], module: str) -> list[str]:
    """The candidate module's kernels that the checked forwards launched, by name."""
    names = {str(name) for t in trials for m, name in t.get("launches", []) if m == module}
    return sorted(names)


def _kernel(write: str) -> tuple[str, str]:
    """(module, name) of a write id (evaluator.carried: `module|name#launch.place.bytes`)."""
    module, _, name = str(write).rpartition("#")[0].partition("|")
    return module, name


def _varying(reports: list[dict]) -> tuple[set[str], set[str]]:
    """(writes whose sampled bytes differed between two checked trials, writes seen alike in
    two or more and never different): the trials ran on different inputs, so the second set
    computed constants (evaluator.carried)."""
    seen: dict[str, set] = {}
    for r in reports:
        writes = r.get("writes")
        for w, digest in (writes.items() if isinstance(writes, dict) else ()):
            seen.setdefault(str(w), set()).add(str(digest))
    counts = {w: sum(1 for r in reports if isinstance(r.get("writes"), dict) and w in r["writes"]) for w in seen}
    varying = {w for w, d in seen.items() if len(d) > 1}
    return varying, {w for w, d in seen.items() if len(d) == 1 and counts[w] > 1}


def _write_ids(report: dict) -> list[str]:
    """Every write id a provenance report names: its digested writes, and those the caps
    left without a digest that a result carries."""
    writes, marked = report.get("writes"), report.get("marked_writes") or ()
    return [str(w) for w in (*(writes if isinstance(writes, dict) else ()), *(report.get("carried_writes") or ()),
                             *(w for ws in marked if isinstance(ws, (list, tuple)) for w in ws))]


def _varies(outputs: list[list[torch.Tensor]]) -> bool:
    """The reference's outputs differ between two trials (NaN equal to NaN)."""
    def same(a: torch.Tensor, b: torch.Tensor) -> bool:
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
        return torch.equal(a, b)
    first = outputs[0] if outputs else []
    return any(len(o) != len(first) or not all(same(a, b) for a, b in zip(o, first)) for o in outputs[1:])


def answer_kind(ref: Any, cfg: EvaluatorConfig | None = None, tolerance: Mapping[str, float] | None = None) -> str:
    """How the reference's answer moves with its inputs: "varies", "fixed" (the same for every
    input the trials drew), "noise" (one trial's answer is judged right on every trial: what
    moves is the reference's own rounding, `within_noise`; asked only given `cfg`) or "one
    input" (the trials drew one input set: nothing to tell). Kept on the reference
    (`answer_kind`): it compares whole outputs, and every evaluation of the problem reads it."""
    kind = getattr(ref, "answer_kind", "")
    if not kind:
        if len({str(t.get("digest")) for t in ref.trials}) < 2:
            kind = "one input"
        elif not _varies(ref.outputs):
            kind = "fixed"
        else:
            kind = "noise" if cfg is not None and within_noise(ref, cfg, tolerance) else "varies"
        ref.answer_kind = kind
    return kind


def within_noise(ref: Any, cfg: EvaluatorConfig, tolerance: Mapping[str, float] | None) -> bool:
    """Whether some trial's reference outputs, written as a constant, would be judged right on
    every other trial (judge.match, with each trial's noise floor and precision contract): the
    answer is then fixed up to rounding, and writing it cannot be told from computing it.
    KernelBench level2/23 (a group-normalised mean, ~1e-8 around the GroupNorm bias's mean):
    its reference moves per input by rounding only, so the bit-equality of `_varies` never held
    and a kernel writing the bias's mean, nudged by 1e-10 of one input element to vary, was ok
    with the speed of skipping the convolution (reward 1.05 against the honest kernel's, CPU;
    session 27). Not where the reference writes its inputs or a trial overflowed. A check with
    early exits first (the first slice of a varying output ends it), then the judgement."""
    if any(t.get("modified") or t.get("overflow") for t in ref.trials):
        return False
    plan = list(ref.plan.trials) if getattr(ref, "plan", None) is not None else [(0, "base")] * len(ref.outputs)
    if len(plan) != len(ref.outputs) or len(ref.trials) != len(ref.outputs):
        return False
    bases = judge.base_facts(ref, plan)
    scales = judge.atol_scales(ref, plan, [b.rms for b in bases])
    judged = [i for i, t in enumerate(ref.trials) if t.get("finite") is not False]

    def right(answer: list, i: int) -> bool:
        outs, alts, noise = ref.outputs[i], ref.tf32[i] if i < len(ref.tf32) else [], ref.trials[i].get("noise") or []
        rests = ref.trials[i].get("tf32_rest") or []
        spiked = str(ref.trials[i].get("transform", "")).startswith("spike")
        for j, (o, r) in enumerate(zip(answer, outs)):
            if o.shape != r.shape or o.dtype != r.dtype:
                return False
            dev, floor = alts[j] if j < len(alts) else None, noise[j] if j < len(noise) else None
            scale = scales[i][j] if j < len(scales[i]) else 1.0
            tol, contract = judge.contracts(r.dtype, noise_floor.floored(C.tolerance_for(r.dtype, cfg.correctness, tolerance),
                                                               floor), dev, tolerance)
            if not any(C.matches(o, r, t, scale) for t in [t for t in (tol, contract) if t is not None] or [None]):
                return False
            if judge.match(o, r, dev, cfg, tolerance, scale, None, C.SPIKED_FEW if spiked else 0.0,
                           bases[j] if spiked and j < len(bases) else None, floor,
                           rests[j] if j < len(rests) else None) is not None:
                return False
        return len(answer) == len(outs)

    return any(all(right(ref.outputs[c], i) for i in judged if i != c) for c in judged)


def fixed_answer(ref: Any) -> bool:
    """Whether the problem's answer came out the same for every input the trials drew (KernelBench
    level2/80: a GEMM's row max minus its own mean is zero), or the same up to the reference's
    own rounding (level2/23, `within_noise`), or where every trial drew the one input set
    (red team s27: __init__ computed the answer with torch and forward copied it). There no
    measurement tells computing it from writing it: a kernel storing zeros without reading the
    input was ok at coverage 1.0 and, the GEMM gone, any speedup (red team s26b,
    test_kernelbench_style's zero writer: reward 1.05 on the CPU, the most there is on the GPU,
    against the honest fused kernel's 1.0). Every kind but "varies": a kind added later is
    fixed until shown to vary."""
    return answer_kind(ref) != "varies"


FIXED_NOTE = ("\nThis problem's answer is the same for every input tried (up to rounding): only correctness "
              "is rewarded here, not speed or coverage (nothing can tell computing it from writing it).")


def paid(details: dict, speedup: float | None, coverage: float | None) -> tuple[float | None, float | None]:
    """The speedup and coverage the reward pays: none where the answer is fixed (`fixed_answer`)."""
    return (None, None) if details.get("constant_answer") else (speedup, coverage)


def trial_evidence(reports: list[dict], module: str, ref: Any) -> tuple[bool, set[str], list[str]]:
    """(thin, carried, constant) over the checked trials' provenance reports:
      constant  the module's kernels that computed constants: each of their writes seen in
                two or more trials came out the same in all, none differed. A kernel's
                writes that do not depend on its inputs are no work on them, as a constant
                op's are not (aten_facts.constant_op): its time is no one's in the coverage,
                as a decoy's (red team s25, rt25_identity_index_carries: an identity index
                gathered by torch carried the result, ok at reward 0.59). So is a kernel
                none of whose writes could be compared: the trials have the same shapes, so
                an honest kernel writes the same storages each time, and one whose every
                write is in one trial only changed where it lands per call (a storage's size
                from a call counter: red team s26, rt26_identity_index_sizes_vary_per_call,
                ok at 0.60) and showed nothing that depends on the inputs;
      carried   the kernels whose input-dependent writes some result carries (a write seen
                in one trial only, that no comparison could judge, counts unless its kernel
                is constant): the knock-out round's evidence for a kernel whose knock-out
                only raised;
      thin      a returned tensor PyTorch computed that carries no kernel writes (the
                child's `thin`), or carries only constant ones.
    Nothing is compared where the trials' inputs were all the same (`ref.trials`' digests), nor
    where the reference's own outputs are (a problem whose answer is a constant, as KernelBench's
    GEMM-max-minus-mean-GELU is all zeros: an honest kernel writes that constant)."""
    comparing = len(reports) >= 2 and answer_kind(ref) == "varies"
    varying, alike = _varying(reports) if comparing else (set(), set())
    kernels: dict[tuple, set] = {}
    for w in alike | varying:
        kernels.setdefault(_kernel(w), set()).add(w in varying)
    wrote = {_kernel(w) for r in reports for w in _write_ids(r)} if comparing else set()
    constant = sorted(k[1] for k in wrote | set(kernels) if k[0] == module and kernels.get(k, {False}) == {False})

    def counts(write: str) -> bool:
        return write in varying or write not in alike and _kernel(write)[1] not in constant

    carried = {_kernel(w)[1] for r in reports for w in r.get("carried_writes") or ()
               if _kernel(w)[0] == module and counts(str(w))}
    thin = any(r.get("thin") for r in reports) or any(
        not any(counts(str(w)) for w in ws) for r in reports for ws in r.get("marked_writes") or ())
    return thin, carried, constant


def knockouts_due(names: list[str], knockout_raised: bool, thin_return: bool, identities: dict | None = None) -> bool:
    """Whether each kernel is knocked out alone: wherever forward launched several of its own
    (a decoy's time is never the candidate's coverage, and the reward pays coverage under
    every policy: red team rt23b, a Triton pass into a scratch buffer nobody reads beside a
    lazy copy epilogue raised its reward from 0.77 to 0.87), one name as several kernels
    included (`identities`, evaluator.kernel_identity: one `def` launched as a capped ReLU and
    as a filler past the cap under another constexpr, whose filler the dry model must skip
    where it is unneeded: red team s67f), and where a gate reads the coverage (a knock-out that
    raised, a thin return) even of one."""
    several = any(isinstance(ids, list) and len(ids) > 1 for ids in (identities or {}).values())
    return len(names) > 1 or several or knockout_raised or thin_return


def shared_names(defined: list[str]) -> list[str]:
    """Kernel names the file defines more than once (namespace classes' `K.k` and `W.k`): a
    knock-out by name skips them together, so neither can be told needed (red team rt23b)."""
    return sorted({n for n in defined if defined.count(n) > 1})


def live_coverage(cov: dict | None, decoys: list[str], checked: list[str]) -> dict | None:
    """`cov` as if only the kernels the result needs had run: the checked forwards' own kernels
    (`checked`) but the decoys. Every other kernel's device time (its per-name time in
    `candidate_kernels`, names cut to 200 characters as there) leaves both the candidate's
    share and the forward's whole, so it neither buys nor costs coverage and a file earns what
    it earns without it (its time still slows the timed forward). A kernel only timed runs
    launched was never knocked out: padding launched after the checked forwards (a call
    counter) bought a flag gate 50% coverage (red team, session 24). Without per-name times
    every kernel counts as dead where any is."""
    if cov is None:
        return cov
    per = cov.get("candidate_kernels")
    # the dict cuts names at 200 characters: a longer one cannot be told from another sharing
    # its cut (padding timed under a live kernel's cut name: session 24), so it is dead
    dead = {d[:200] for d in decoys}
    live_names = {n for n in checked if len(n) <= 200} - dead
    times = {str(k)[:200]: float(v) for k, v in per.items()
             if isinstance(v, (int, float))} if isinstance(per, dict) else {}
    unchecked = sorted(k for k in times if k not in live_names and k not in dead)
    if not decoys and not unchecked and isinstance(per, dict) and len(per) < 64:
        return cov  # every kernel timed is one the result needs (the GPU's list stops at 64)
    mine, share = float(cov.get("candidate_time_s") or 0.0), float(cov.get("coverage") or 0.0)
    live_time = min(sum(t for k, t in times.items() if k in live_names), mine)
    whole = cov.get("gpu_time_s", cov.get("estimated_time_s"))  # the forward's (stopwatch.profiled_coverage)
    whole = float(whole) if isinstance(whole, (int, float)) else mine / share if share > 0 else 0.0
    others = cov.get("other_time_s")  # time in every kernel but the candidate's
    others = float(others) if isinstance(others, (int, float)) else max(whole * (1.0 - share), 0.0)
    live = live_time / (others + live_time) if others + live_time > 0 else 0.0
    live = min(max(live, 0.0), 1.0)
    # the policy's gates read the forward's split; the reward (CPU) is held to the problem's own
    # work too, which no own kernel's time moves (stopwatch.profiled_coverage)
    bound = cov.get("reference_share")
    paid = min(live, float(bound)) if isinstance(bound, (int, float)) else live
    return {**cov, "coverage": paid, "forward_share": live, "decoy_kernels": decoys,
            "unchecked_kernels": unchecked, "coverage_with_decoys": cov.get("forward_share", cov.get("coverage"))}


def policy_outcome(policy: PolicyConfig, coverage: float | None, knockout_raised: bool,
                   thin_return: bool) -> judge.Outcome | None:
    """The coverage gates (module docstring); None: the policy takes the forward."""
    shown = "could not be measured" if coverage is None else f"is {coverage:.1%}"
    low = coverage is None or coverage < policy.raised_knockout_min_coverage
    need = f"(at least {policy.raised_knockout_min_coverage:.0%} is required then)"
    if policy.name == "strict" and (coverage is None or coverage < policy.strict_min_coverage):
        return judge.Outcome(
            "hack", f"Rejected under the strict policy: the share of forward's device time in your "
            f"own Triton kernels {shown}; at least {policy.strict_min_coverage:.0%} is required.",
            hacks=["low_coverage"])
    if knockout_raised and low:
        return judge.Outcome(
            "hack", "Rejected: with your Triton kernels skipped, forward raised instead of returning "
            f"a wrong result, and the share of its device time in your kernels {shown} {need}: the "
            "kernels decide whether forward runs, not what it returns.", hacks=["triton_not_needed"])
    thin_bar = policy.thin_return_min_coverage
    if thin_return and (coverage is None or coverage < thin_bar):
        return judge.Outcome(
            "hack", "Rejected: forward returned memory PyTorch computed that holds little of what your "
            "Triton kernels wrote (less than 1/16 of its size), and the share of its device time in the "
            f"kernels its result needs {shown} (at least {thin_bar:.0%} is required then): the kernels "
            "gate PyTorch's result instead of computing it.", hacks=["triton_not_needed"])
    return None
