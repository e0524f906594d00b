"""The verdict pipeline: `Evaluator(cfg).evaluate(problem, candidate_source, settings)`.

Cheapest first, stopping at the first terminal outcome:
  static     decode + AST checks (evaluator.static_checks), in the worker
  reference  the trusted reference child runs Model on the plan's trials (cached)
  load       a candidate child imports problem and candidate, builds ModelNew
  inputs     the child makes every input set it will use on the CPU, device not held
  correctness the candidate child runs the trials; the worker compares (judge)
  timing     same child: reference and candidate timed the same way, side-stream
             check, profiler coverage (GPU), re-check on a refilled timed buffer
  reset      the child cleans up and proves it is intact, or is retired (pool)

`problem` is anything with name, source, sizes ({"cpu"|"cuda": {global: value}}),
tolerance ({"atol", "rtol"} or None) and content_hash() (common.problemset.Problem).
`settings` is common.messages.EvalSettings (device, timeout_s, trials, timing,
profile); None means defaults. On the CPU (Triton interpreter) timings are CPU
timings and coverage is not measured: it is None and the reward has no coverage
term (the interpreter's cost would make any coverage estimate meaningless). The Evaluator is thread-safe: candidates run in up
to `children` children at once, timing and profiling alone on the device
(evaluator.device_lock); CPU-side work (input generation, comparison) holds no lock.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig, sensitive_environment_values
from common.messages import EvalSettings
from evaluator import feedback as F
from evaluator import judge
from evaluator.device_lock import DeviceLock
from evaluator.pool import ChildPool
from evaluator.reference import (
    ProblemFailed,
    ReferenceCache,
    ReferenceOutputs,
    TrialPlan,
    make_plan,
    reference_request,
    split_outputs,
)
from evaluator.sandbox import Child, ChildFailure, probe_isolation
from evaluator.static_checks import check_source, decode_source
from evaluator.verdict import Verdict, compute_reward

log = logging.getLogger(__name__)


def resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


class Evaluator:
    def __init__(self, cfg: EvaluatorConfig):
        self.cfg = cfg
        self.device = resolve_device(cfg.device)
        sb = cfg.sandbox
        self.isolation = probe_isolation(sb.network_isolation, sb.pid_namespace, sb.readonly_filesystem)
        self.pool = ChildPool(cfg, self.device, self.isolation)
        self.references = ReferenceCache(cfg.reference_cache_bytes)
        self.device_lock = DeviceLock(cfg.timing.exclusive_device)
        self._secrets = sensitive_environment_values()
        if sb.unsafe_skip_static_checks:
            log.warning("evaluator: static checks are OFF (sandbox testing only)")

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.pool.close()

    def warm_up(self) -> None:
        self.pool.warm_up()

    # ------------------------------------------------------------------ the pipeline
    def evaluate(self, problem: Any, candidate_source: str | bytes,
                 settings: EvalSettings | None = None) -> Verdict:
        settings = settings or EvalSettings()
        run = _Run(self, problem, settings)
        try:
            return run.execute(candidate_source)
        except ProblemFailed as exc:
            return run.finish(judge.Outcome("runtime_error", "The reference problem itself failed "
                                            f"(not your kernel):\n{exc}", details={"error_source": "problem"}))


class _Run:
    """State of one evaluation: phases, details, the plan."""

    def __init__(self, ev: Evaluator, problem: Any, settings: EvalSettings):
        self.ev, self.cfg, self.problem, self.settings = ev, ev.cfg, problem, settings
        if settings.device not in ("auto", ev.device):
            raise ValueError(f"this evaluator runs on {ev.device}; the request asks for {settings.device}")
        self.timeout_s = min(settings.timeout_s, self.cfg.timeout_s)
        self.plan: TrialPlan = make_plan(self.cfg, settings.trials, getattr(problem, "distributions", None))
        self.sizes = dict((getattr(problem, "sizes", None) or {}).get(ev.device, {}))
        self.tolerance = getattr(problem, "tolerance", None)
        self.phases: dict[str, float] = {}
        self.t0 = time.monotonic()
        self.details: dict[str, Any] = {"device": ev.device, "problem": getattr(problem, "name", "?"),
                                        "sandbox": {"network_isolated": ev.isolation.network,
                                                    "pid_namespace": ev.isolation.pid,
                                                    "static_checks": not self.cfg.sandbox.unsafe_skip_static_checks}}
        self.sandbox_dirs: list[str] = []

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        t = time.monotonic()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.monotonic() - t

    def sanitize(self, text: str) -> str:
        return F.sanitize(text, self.sandbox_dirs, self.ev._secrets)

    def finish(self, outcome: judge.Outcome, speedup: float | None = None, coverage: float | None = None,
               ref_s: float | None = None, cand_s: float | None = None) -> Verdict:
        self.phases["total"] = time.monotonic() - self.t0
        self.details.update(outcome.details)
        text = F.bound(self.sanitize(outcome.feedback), self.cfg.feedback_max_chars)
        return Verdict(status=outcome.status, correct=outcome.status == "ok", speedup=speedup,
                       reward=compute_reward(outcome.status, speedup, coverage, self.cfg.reward),
                       hacks=outcome.hacks, feedback=text, coverage=coverage,
                       phase_seconds=dict(self.phases), ref_time_s=ref_s, candidate_time_s=cand_s,
                       details=self.details)

    def execute(self, candidate_source: str | bytes) -> Verdict:
        with self.phase("static"):
            static = self.static(candidate_source)
        if isinstance(static, judge.Outcome):
            return self.finish(static)
        with self.phase("reference"):
            ref = self.reference()
        waited = time.monotonic()
        with self.ev.pool.candidate() as child:
            self.phases["sandbox_start"] = time.monotonic() - waited  # a warm child: ~0
            self.sandbox_dirs.append(str(child.tmp))
            self.details["sandbox"].update(readonly_fs=child.ready.get("readonly_fs"),
                                           caps_dropped=child.ready.get("caps_dropped"))
            verdict, reusable = self.run_candidate(child, static, ref)
            if reusable and not self.cfg.sandbox.unsafe_skip_static_checks:
                with self.phase("reset"):
                    child.reusable = self.reset(child)  # type: ignore[attr-defined]
        self.phases.pop("total", None)
        self.phases["total"] = time.monotonic() - self.t0
        verdict.phase_seconds = dict(self.phases)
        return verdict

    def static(self, raw: str | bytes) -> str | judge.Outcome:
        source, finding = decode_source(raw, self.cfg.static)
        if finding is not None:
            return judge.Outcome(finding.status, f"Format error: {finding.message}.")
        if self.cfg.sandbox.unsafe_skip_static_checks:
            return source
        report = check_source(source, self.cfg.static)
        self.details["kernels_defined"] = report.kernels
        if report.status is None:
            return source
        relevant = [f for f in report.findings if f.status == report.status]
        lines = [f"line {f.line}: {f.message}" if f.line else f.message for f in relevant[:8]]
        head = {"hack": "Rejected by the static checks", "compile_error": "Compile error",
                "format_error": "Format error"}[report.status]
        return judge.Outcome(report.status, f"{head}:\n" + "\n".join(lines), hacks=report.hacks,
                             details={"static_findings": [f.code for f in report.findings]})

    def reference(self) -> ReferenceOutputs:
        key = ReferenceCache.key(self.problem, self.ev.device, self.sizes, self.plan)
        with self.ev.references.computing(key):
            cached = self.ev.references.get(key)
            self.details["reference_cached"] = cached is not None
            return cached if cached is not None else self.compute_reference(key)

    def compute_reference(self, key: str) -> ReferenceOutputs:
        request = reference_request(self.problem.source, self.sizes, self.plan)
        with self.ev.pool.reference() as child:
            self.sandbox_dirs.append(str(child.tmp))
            try:  # inputs are made on the CPU before the device is taken (see input_sets)
                reply, tensors = child.request({"op": "prepare", "problem": request["problem"],
                                                "sizes": request["sizes"], "inputs": request["trials"]},
                                               self.timeout_s)
                if reply["op"] != "error":
                    with self.ev.device_lock.shared():
                        reply, tensors = child.request(request, self.timeout_s)
            except ChildFailure as exc:
                raise ProblemFailed(f"{exc.reason}\n{self.sanitize(exc.log_tail[-1500:])}") from None
            if reply["op"] == "error":
                raise ProblemFailed(F.trim_traceback(self.sanitize(str(reply.get("traceback") or
                                                                       reply.get("message")))))
        ref = ReferenceOutputs(trials=reply["trials"], outputs=split_outputs(reply["trials"], tensors))
        self.ev.references.put(key, ref)
        return ref

    def run_candidate(self, child: Child, source: str, ref: ReferenceOutputs) -> tuple[Verdict, bool]:
        """(verdict, whether the child may be reused)."""
        deadline = time.monotonic() + self.timeout_s
        phase = "load"
        try:
            with self.ev.device_lock.shared(), self.phase("load"):
                reply, _ = child.request({"op": "load", "problem": self.problem.source, "sizes": self.sizes,
                                          "candidate": source, "init_seed": self.plan.init_seed,
                                          "cpu_budget_s": 4 * self.timeout_s}, deadline - time.monotonic())
            if reply["op"] == "error":
                return self.finish(judge.from_error(reply, "load", self.sanitize)), reply["kind"] != "internal"
            if reply.get("tampered"):
                return self.finish(judge.Outcome("hack", "Rejected: importing your module modified the "
                                                 "evaluator's process.", hacks=["monkey_patch"])), False
            phase = "inputs"
            with self.phase("inputs"):
                reply, _ = child.request({"op": "prepare", "inputs": self.input_sets(ref)},
                                         deadline - time.monotonic())
            if reply["op"] == "error":
                return self.finish(judge.from_error(reply, "inputs", self.sanitize)), reply["kind"] != "internal"
            phase = "correctness"
            with self.phase("correctness"):
                outcome = self.correctness(child, ref, deadline)
            if outcome is not None:
                ok_to_reuse = outcome.status in ("incorrect", "runtime_error", "compile_error") and \
                    outcome.details.get("error_source") not in ("harness", "problem")
                return self.finish(outcome), ok_to_reuse
            if not self.settings.timing:
                return self.finish(judge.Outcome("ok", "Correct (timing was not requested).")), True
            phase = "timing"
            with self.ev.device_lock.exclusive(), self.phase("timing"):
                return self.benchmark(child, ref, deadline)
        except ChildFailure as exc:
            return self.failure(exc, phase), False

    def input_sets(self, ref: ReferenceOutputs) -> list[dict]:
        """Every input set the candidate child will use, in order: the correctness trials,
        then (when timing) the timing sets and the re-check. The child makes them on the
        CPU before the device is taken, so the device-locked steps (the trials shared,
        the timing exclusive) only move them and run kernels: other evaluations' CPU
        work overlaps a timing instead of queueing behind it."""
        sets = self.trial_sets(ref)
        if self.settings.timing:
            sets += [{"seed": s, "transform": "base"} for s in self.plan.timing_seeds]
            if self.cfg.correctness.recheck_after_timing:
                sets.append({"seed": self.plan.recheck[0], "transform": ref.recheck[0]["transform"]})
        return sets

    def trial_sets(self, ref: ReferenceOutputs) -> list[dict]:
        return [{"seed": s, "transform": r["transform"]} for (s, _), r in zip(self.plan.trials, ref.trials)]

    def correctness(self, child: Child, ref: ReferenceOutputs, deadline: float) -> judge.Outcome | None:
        """Run the trials (device shared), then judge them here, with the device released."""
        trials = self.trial_sets(ref)
        plan_trials = [(t["seed"], t["transform"]) for t in trials]
        with self.ev.device_lock.shared():
            reply, tensors = child.request({"op": "trials", "trials": trials,
                                            "expected": [r["outputs"] for r in ref.trials[:len(trials)]],
                                            "max_output_bytes": self.cfg.correctness.max_output_bytes},
                                           deadline - time.monotonic())
        if reply["op"] == "error":
            return judge.from_error(reply, "correctness", self.sanitize)
        self.details["kernels"] = reply.get("kernels", [])
        self.details["launches"] = [sorted({n for _, n in t["launches"]}) for t in reply["trials"]]
        self.details["trials"] = [{"seed": s, "inputs": d} for s, d in plan_trials]
        if reply.get("tampered"):
            return judge.Outcome("hack", "Rejected: forward modified the evaluator's process.",
                                 hacks=["monkey_patch"])
        return judge.judge_trials(reply, tensors, ref, plan_trials, self.cfg, self.tolerance)

    def benchmark(self, child: Child, ref: ReferenceOutputs, deadline: float) -> tuple[Verdict, bool]:
        r_trial, _ = ref.recheck
        recheck = ({"seed": self.plan.recheck[0], "transform": r_trial["transform"],
                    "expected": r_trial["outputs"]} if self.cfg.correctness.recheck_after_timing else None)
        profile = bool(self.settings.profile and self.cfg.profiling.enabled)
        reply, tensors = child.request({
            "op": "benchmark", "init_seed": self.plan.init_seed, "timing_seeds": list(self.plan.timing_seeds),
            "timing": self.cfg.timing.model_dump(), "recheck": recheck, "profile": profile,
            "profile_forwards": self.cfg.profiling.forwards,
            "max_output_bytes": self.cfg.correctness.max_output_bytes}, deadline - time.monotonic())
        if reply["op"] == "error":
            outcome = judge.from_error(reply, "timing", self.sanitize)
            return self.finish(outcome), outcome.details.get("error_source") == "candidate"
        outcome = judge.judge_benchmark(reply, tensors, ref, self.cfg, self.tolerance)
        if outcome is not None:
            return self.finish(outcome), False
        ref_s, cand_s = reply["ref"]["median_s"], reply["cand"]["median_s"]
        speedup = ref_s / cand_s if cand_s > 0 else None
        cov = reply.get("coverage")
        self.details["timing"] = {"ref": reply["ref"], "candidate": reply["cand"],
                                  "clock": reply["cand"]["clock"]}
        for key in ("side_stream", "compile"):
            if key in reply:
                self.details["timing"][key] = reply[key]
        if "compile" in reply and cand_s > 0:
            self.details["speedup_vs_compile"] = reply["compile"]["median_s"] / cand_s
        if cov is not None:
            self.details["profile"] = cov
        text = F.timing_text(ref_s, cand_s, reply["cand"]["clock"], cov)
        return self.finish(judge.Outcome("ok", text), speedup=speedup,
                           coverage=cov["coverage"] if cov else None, ref_s=ref_s, cand_s=cand_s), True

    def failure(self, exc: ChildFailure, phase: str) -> Verdict:
        self.details["phase"] = phase
        if exc.status == "timeout":
            text = (f"Timeout: the evaluation exceeded its {self.timeout_s:g} s limit during {phase}; "
                    "the process was killed.")
        else:
            text = f"Crashed during {phase}: {exc.reason}."
        tail = exc.log_tail.strip()
        if tail:
            text += "\nLast output:\n" + tail[-1500:]
        return self.finish(judge.Outcome(exc.status, text, details={"failure": exc.reason}))

    def reset(self, child: Child) -> bool:
        try:
            reply, _ = child.request({"op": "reset"}, 30.0)
        except ChildFailure as exc:
            log.warning("sandbox child failed its reset (%s); retiring it", exc.reason)
            return False
        if not reply.get("healthy"):
            log.warning("sandbox child not reusable: %s", "; ".join(reply.get("reasons", []))[:500])
            return False
        return reply.get("rss_bytes", 0) < self.cfg.sandbox.memory_limit_bytes // 2
