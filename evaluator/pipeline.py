"""The verdict pipeline: `Evaluator(cfg).evaluate(problem, candidate_source, settings)`.

Cheapest first, stopping at the first terminal outcome (docs/threat_model.md has the
threat model these steps implement):
  static      decode + AST allowlist (evaluator.static_checks), in the worker
  reference   a new problem is measured first; the trusted reference child runs Model on
              the trials (cached per problem), capped at its reservation (evaluator.reference_phase)
  inputs      a FRESH candidate child (forked by a sandbox's zygote for this candidate
              alone) imports the problem and makes every input set (on the device
              where get_inputs allows), before the candidate's module exists; the
              worker checks their digests
  load        the child imports the candidate and builds ModelNew
  correctness the child runs the trials; the worker compares outputs (evaluator.correctness_phase,
              judge)
  knockout    one more forward with every Triton launch skipped: still right = decoy;
              with several own kernels, a round of each skipped alone among judged
              forwards, all on fresh inputs (evaluator.gates, evaluator.knockout_round);
              under strict, one with PyTorch's compute returning noise: wrong = torch_computes
  timing      the worker's clock around each run of the candidate, then of the reference
              in the reference child, on the same fresh draws of inputs; outputs of random
              runs revealed and compared (evaluator.timing_phase, evaluator.stopwatch)
  profile     coverage of the candidate's own kernels (GPU: profiler, CPU: work meter),
              on timed runs chosen at random (their times unused)
  policy      paper (default) or strict, from run-time evidence, reported in the verdict
  depth       (CPU only) an ok is judged again with each size the CPU shrank restored to the
              file's declared value, one base trial each in a fresh child (evaluator.depth_phase)
At the end the candidate's job is ended: its process and everything it started are
killed and its files wiped; nothing of it reaches the next candidate.

`problem` is anything with name, source, sizes ({"cpu"|"cuda": {global: value}}),
tolerance ({"atol", "rtol"} or None) and content_hash() (common.problemset.Problem).
`settings` is common.messages.EvalSettings; None means defaults. On the CPU (Triton
interpreter) timings are CPU timings and say so; coverage there is the interpreter
work meter's roofline estimate. The Evaluator is thread-safe.
"""
from __future__ import annotations

import json
import logging
import math
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig, sensitive_environment_values
from common.messages import EvalSettings
from evaluator import (
    bwrap,
    correctness_phase,
    gates,
    judge,
    kept_check,
    knockout_round,
    reference_phase,
)
from evaluator import compare as C
from evaluator import feedback as F
from evaluator.correctness_phase import set_output_bytes
from evaluator.device_lock import DeviceLock, host_lock_path, open_host_lock
from evaluator.device_lost import DeviceLost, Faults
from evaluator.host_alignment import fresh_alignment
from evaluator.memory import DeviceMemory, HostMemory
from evaluator.pool import ChildPool, EvaluatorUnavailable
from evaluator.reference import (
    ProblemFailed,
    ReferenceCache,
    ReferenceOutputs,
    TrialPlan,
    make_plan,
    timing_transform,
)
from evaluator.sandbox import Child, ChildFailure, SandboxFailure
from evaluator.static_checks import check_source, decode_source
from evaluator.timing_phase import time_both
from evaluator.verdict import Verdict, compute_reward

log = logging.getLogger(__name__)
TIMING_SETS = 2000  # the timing runs' input-set ids (the trials are 0.., the knock-out runs 1000..)
# A forward that tests its tensors' device (`x.is_cuda`, `x.device.type`, `torch.cuda.is_available()`)
# may launch its kernels on CUDA tensors only: under the CPU interpreter that is no hack.
# (`torch.cuda.device_count() == 0`, `str(x.device).startswith("cuda")`, `x.is_cpu`, `x.get_device()`
# too: honest round, session 21)
_DEVICE_TEST = re.compile(r"\bis_cuda\b|\bis_cpu\b|\.device\.type\b|\.is_available\(\)|\.device\s*[!=]="
                          r"|\.device_count\(\)|\.get_device\(\)|str\([^()]*\.device\)|\.is_bf16_supported\(\)")


def resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


class Evaluator:
    def __init__(self, cfg: EvaluatorConfig):
        self.cfg = cfg
        self.device = resolve_device(cfg.device)
        self.layers = bwrap.probe(cfg.sandbox)
        try:
            bwrap.check(cfg.sandbox, self.layers)
        except bwrap.IsolationUnavailable as exc:
            raise EvaluatorUnavailable(str(exc)) from None
        self.pool = ChildPool(cfg, self.device, self.layers)
        self.references = ReferenceCache(cfg.reference_cache_bytes)
        self.device_lock = DeviceLock(cfg.timing.exclusive_device,
                                      open_host_lock(host_lock_path(self.device), cfg.timing.host_lock_wait_s)
                                      if cfg.timing.host_lock else None)
        # the worker's own CUDA context, where it judges outputs (compare.on_device)
        self.judge_device = "cuda" if self.device == "cuda" and cfg.correctness.judge_on_device else None
        self.memory = DeviceMemory(cfg.memory, cfg.children + cfg.reference_children + bool(self.judge_device))
        # interpreter-sized problems on the CPU hold megabytes: no budget there
        self.host_memory = HostMemory(cfg.memory, cfg.reference_cache_bytes, enabled=self.device == "cuda")
        self.seed_base = cfg.seed if cfg.seed is not None else secrets.randbits(40)
        self.depth_plans: dict[str, list] = {}  # problem and CPU sizes -> its depth variants (evaluator.depth_phase)
        self._secrets = sensitive_environment_values()
        if cfg.sandbox.unsafe_skip_static_checks:
            log.warning("evaluator: static checks are OFF (sandbox testing only)")

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.pool.close()
        self.device_lock.close()

    def warm_up(self) -> None:
        self.pool.warm_up()
        self.learn_device()

    def learn_device(self) -> None:
        """Size the device-memory budget from what a trusted reference child reports."""
        if self.device == "cuda" and self.memory.capacity is None:
            with self.pool.reference() as child:
                self.memory.set_device(int((child.ready or {}).get("device_memory_bytes") or 0))

    def evaluate(self, problem: Any, candidate_source: str | bytes,
                 settings: EvalSettings | None = None) -> Verdict:
        settings = settings or EvalSettings()
        run = _Run(self, problem, settings)
        try:
            return run.execute(candidate_source)
        except ProblemFailed as exc:
            return run.finish(judge.Outcome("runtime_error", "The reference problem itself failed "
                                            f"(not your kernel):\n{exc}{F.cpu_sizes_hint(self.device, run.sizes)}",
                                            error_source="problem"))
        except SandboxFailure as exc:  # infrastructure, never the candidate's verdict
            return run.finish(judge.Outcome("crashed", f"The evaluator's sandbox failed ({exc}); this "
                                            "is not a verdict on your kernel.",
                                            error_source="evaluator"))


class _Run:
    """State of one evaluation: phases, details, the plan."""

    clock_started = False  # the candidate's limit runs from its first command (`candidate_clock`)

    def __init__(self, ev: Evaluator, problem: Any, settings: EvalSettings):
        self.ev, self.cfg, self.problem, self.settings = ev, ev.cfg, problem, settings
        if settings.device not in ("auto", ev.device):
            raise ValueError(f"this evaluator runs on {ev.device}; the request asks for {settings.device}")
        self.timeout_s = min(settings.timeout_s, self.cfg.timeout_s)
        self.plan: TrialPlan = make_plan(self.cfg, ev.seed_base, settings.trials,
                                         getattr(problem, "distributions", None))
        self.sizes = dict((getattr(problem, "sizes", None) or {}).get(ev.device, {}))
        self.memory_key = json.dumps([problem.content_hash(), self.sizes], sort_keys=True, default=str)
        self.tolerance = getattr(problem, "tolerance", None)
        self.phases: dict[str, float] = {}
        self.t0 = time.monotonic()
        self.deadline = self.t0 + self.timeout_s
        self.frozen: Callable[[], float] = float  # the candidate job's stopped seconds (left); float() is 0
        self.pinned_grace = self.timeout_s  # what `pinned_back` may still give back
        self.details: dict[str, Any] = {"device": ev.device, "problem": getattr(problem, "name", "?"),
                                        "policy": self.cfg.policy.name,
                                        "sandbox": {**ev.layers.as_details(),
                                                    "static_checks": not self.cfg.sandbox.unsafe_skip_static_checks,
                                                    "fresh_process": True,
                                                    "allocator_alignment": fresh_alignment(ev.device)}}
        self.kernels: list[str] = []
        self.device_branch = False  # the file tests its tensors' device (see _DEVICE_TEST)
        self.module = ""
        self.init_on = "host"  # where the Model's parameters are drawn (the reference's, `reference`)
        self.current = "start-up"
        self.facts: dict[str, str] = {"precision": "strict"}  # which reference the outputs met
        self.knockout_raised = False  # the knock-out run raised rather than came out wrong
        self.lost = Faults(knockout_round.REPEATS)  # knock-outs that left a child's device unusable
        self.thin_return = False  # a checked forward returned PyTorch's memory thin in kernel writes
        self.decoys, self.decoys_joint = [], True  # own kernels the result does not need (gates); together too
        self.unneeded: list[str] = []  # kernels (names, qualified names) the round found unneeded: dry_phase skips
        self.qualnames: dict = {}  # names launched as two or more kernels -> their qualified names (kernel_identity)
        self.own_names, self.carried, self.constant = [], set(), []  # own kernels: launched, carried, constant
        self.bound: int | None = None  # most bytes a candidate's `run` reply may carry
        self.ref_in_place = False  # the reference writes its inputs (they are then outputs too)
        self.trial_programs: dict[str, int] = {}  # per own kernel, the least programs of a trial
        self.trial_most: dict[str, int] = {}  # per own kernel, the most programs of a trial
        self.trial_own_work: int | None = None  # the least interpreted work of a trial's own launches
        self.trial_variants: set[str] | None = None  # own kernels' constexpr variants the trials ran
        # a depth trial of another run (evaluator.depth_phase): one base trial, no knock-outs, no
        # autotune config cover, no depth trials of its own
        self.depth_run = False
        # the worker's own time in its comparisons (seconds; prejudge overlaps the child's runs)
        self.worker_seconds: dict[str, float] = {}
        self.details["worker_seconds"] = self.worker_seconds

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        self.current = name
        t = time.monotonic()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.monotonic() - t

    def left(self) -> float:
        """What is left of the evaluation's time; a stop of its candidate's job for a timing
        elsewhere (evaluator.pool.quiet) is not its time."""
        return self.deadline + self.frozen() - time.monotonic()

    def candidate_clock(self) -> None:
        """The candidate's limit runs from its child's first command, once: the static checks, the
        reference pass (bounded by the limit from the start, reference_phase.request) and the child's start
        (`startup_timeout_s`) grow with the box's load, not the kernel (27-39 s each of 120 s at load
        16-22: an honest causal softmax was `timeout` in timing, s67h_04b)."""
        if self.clock_started:
            return
        self.clock_started = True
        self.details["before_candidate_s"] = round(time.monotonic() - self.t0, 3)
        self.deadline = max(self.deadline, time.monotonic() + self.timeout_s - self.frozen())

    def pinned_back(self, seconds: object) -> None:
        """Give back the time a candidate child spent in the CPU's autotune emulation (a reply's
        `autotune_pinned_s`: the first picks' emulated benchmarks, autotune_cpu._benchmark, and
        the pinned forwards, autotune_pins), at most `timeout_s` in all: a GPU benchmarks its
        configs in milliseconds, the CPU interprets every config two or three times and runs a
        whole forward per config and input transform, so an honest many-config autotuner ran
        out of the evaluation's time there (honest s53_17, s54_06) though nothing was wrong. A
        CPU command may run into this grace (correctness_phase); bounded, a forged figure buys
        at most one more limit's time, never a check."""
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds):
            grant = min(max(float(seconds), 0.0), self.pinned_grace)
            self.pinned_grace -= grant
            self.deadline += grant
            self.details["autotune_pinned_s"] = round(self.details.get("autotune_pinned_s", 0.0) + grant, 3)

    @contextmanager
    def judging(self) -> Iterator[None]:
        """The worker's comparisons, on its own device context where configured: as a child's
        forward, under the shared device lock (never beside another evaluation's timing)."""
        if self.ev.judge_device is None:
            yield
            return
        with self.holding(self.ev.device_lock.shared()), C.on_device(self.ev.judge_device):
            yield

    @contextmanager
    def holding(self, lock: Any) -> Iterator[Any]:
        """Hold a device lock; the wait for it is not this evaluation's time (the deadline
        moves by it): a candidate that holds the device until its own deadline must not
        turn another's timing into a `timeout` verdict on that other's kernel."""
        t = time.monotonic()
        with lock as held:
            self.deadline += time.monotonic() - t
            yield held

    def sanitize(self, text: str) -> str:
        return F.sanitize(re.sub(r"/tmp/job-\d+/eval-\d+/", "", text), ("/tmp",), self.ev._secrets)

    def finish(self, outcome: judge.Outcome, speedup: float | None = None, coverage: float | None = None,
               ref_s: float | None = None, cand_s: float | None = None, sizes_note: bool = True) -> Verdict:
        self.phases["total"] = time.monotonic() - self.t0
        self.details.update(outcome.details)
        text = self.sanitize(outcome.feedback)
        if outcome.status in ("runtime_error", "incorrect", "timeout", "crashed") and self.sizes and sizes_note:
            text += F.sizes_note(self.problem.source, self.sizes, self.ev.device)
        text = F.bound(text, self.cfg.feedback_max_chars)
        return Verdict(status=outcome.status, correct=outcome.status == "ok", speedup=speedup,
                       reward=compute_reward(outcome.status, *gates.paid(self.details, speedup, coverage), self.cfg.reward),
                       hacks=outcome.hacks, feedback=text, coverage=coverage,
                       phase_seconds=dict(self.phases), ref_time_s=ref_s, candidate_time_s=cand_s,
                       error_source=outcome.blame, details=self.details)

    def execute(self, candidate_source: str | bytes) -> Verdict:
        with self.phase("static"):
            static = self.static(candidate_source)
        if isinstance(static, judge.Outcome):
            return self.finish(static)
        host = self.ev.host_memory
        with self.phase("reference"):
            self.measure()
        with self.holding(host.reserve(host.first_estimate(self.memory_key))) as grant:
            return self._execute(static, grant)

    def measure(self) -> None:
        reference_phase.measure(self)

    def _execute(self, static: str, grant: Any) -> Verdict:
        with self.phase("reference"):
            ref = self.reference()
        need = reference_phase.host_need(self.cfg, ref.nbytes)
        self.ev.host_memory.record(self.memory_key, need)
        grant.shrink(need)
        memory = self.ev.memory
        batch = min(self.cfg.timing.batch_memory_bytes or (1 << 62),
                    self.cfg.timing.max_batch * (memory.footprint(self.memory_key) or 0))
        reservation = memory.candidate_bytes(memory.footprint(self.memory_key), batch)
        before, started = dict(self.details), time.monotonic()
        verdict = self._candidate_job(static, ref, reservation)
        if verdict.status == "runtime_error" and verdict.details.get("device_oom") \
                and memory.capacity is not None and (reservation or 0) < memory.capacity:
            # out of device memory under its share (the worker's estimate from the reference's
            # footprint, not the kernel's fault): once more with the whole budget (an honest cuDNN
            # conv + Triton epilogue needed 22 GiB of a 21.4 GiB share on a 141 GiB H200, session 23)
            self.details = {**before, "device_retry": {"reservation_bytes": reservation,
                                                       "seconds": round(time.monotonic() - started, 3)}}
            self.deadline += time.monotonic() - started
            verdict = self._candidate_job(static, ref, memory.capacity)
        self.phases["total"] = time.monotonic() - self.t0
        verdict.phase_seconds = dict(self.phases)
        if not self.depth_run and verdict.status == "ok" and self.ev.device == "cpu":
            from evaluator import depth_phase  # (imports this module)

            verdict = depth_phase.check(self, static, ref, verdict)
        return verdict

    def _candidate_job(self, static: str, ref: ReferenceOutputs, reservation: int | None) -> Verdict:
        """The candidate's whole job in a fresh child whose device allocations are capped at
        `reservation`, held from the device budget meanwhile."""
        self.details["device_reservation_bytes"] = reservation
        job = {"cpu_budget_s": 4 * self.timeout_s, "device_memory_bytes": reservation}
        with self.holding(self.ev.memory.reserve(reservation)):  # the wait is not this evaluation's time
            while (verdict := self._in_child(job, static, ref)) is None:  # a knock-out lost the device
                continue  # (evaluator.device_lost): again in a fresh child
        return verdict

    def _in_child(self, job: dict, static: str, ref: ReferenceOutputs) -> Verdict | None:
        """The job in one fresh child; None where a knock-out forward left its device unusable
        (recorded in `lost`, which the next child's job takes as raised)."""
        started = time.monotonic()
        with self.ev.pool.candidate(job) as child:
            self.frozen = child.frozen_seconds
            self.phases["sandbox_start"] = self.phases.get("sandbox_start", 0.0) + time.monotonic() - started
            try:
                verdict = self.run_candidate(child, static, ref)
            except DeviceLost as exc:  # each child settles one more knock-out (device_lost.Faults)
                text = F.untrusted(self.sanitize(str(exc)))
                verdict = None if self.lost.record(exc.what, text) else self.finish(judge.Outcome("runtime_error", text))
                self.details["device_lost"] = [*self.details.get("device_lost", []), text]
            except ChildFailure as exc:
                verdict = self.failure(exc)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                # a reply that does not have the shape the protocol promises: only code in the
                # candidate's process can have written it (the worker logs it in case it is ours)
                log.warning("malformed reply from a candidate child in %s", self.current, exc_info=True)
                verdict = self.finish(judge.Outcome(
                    "crashed", f"Crashed during {self.current}: the process running your kernel sent a "
                    f"malformed reply ({type(exc).__name__}).", details={"failure": "protocol"}))
            stopped = child.frozen_seconds()  # from here on part of the deadline itself
            self.deadline, self.frozen = self.deadline + stopped, float
            if verdict is not None:  # the worker's own watchdog's samples (every 0.2 s while it waits on the child)
                verdict.details["host_peak_rss_bytes"] = child.sandbox.peak_rss  # and, per command, the child's time
                verdict.details["child_seconds"] = {op: [n, round(s, 3)] for op, (n, s) in child.op_seconds.items()}
                if stopped:
                    verdict.details["stopped_s"] = round(stopped, 3)  # for timings elsewhere (quiet)
        return verdict

    # ------------------------------------------------------------------ static and reference
    def static(self, raw: str | bytes) -> str | judge.Outcome:
        source, finding = decode_source(raw, self.cfg.static)
        if finding is not None:
            return judge.Outcome(finding.status, f"Format error: {finding.message}.")
        if self.cfg.sandbox.unsafe_skip_static_checks:
            return source
        report = check_source(source, self.cfg.static, lower_block_pointers=self.ev.device == "cpu" or None)
        self.details["kernels_defined"] = report.kernels
        if report.status is None:
            return report.source or source  # what was judged, its settled conditions pinned
        relevant = [f for f in report.findings if f.status == report.status]
        lines = [f"line {f.line}: {f.message}" if f.line else f.message for f in relevant[:8]]
        head = {"hack": "Rejected by the static checks", "compile_error": "Compile error",
                "format_error": "Format error"}[report.status]
        return judge.Outcome(report.status, f"{head}:\n" + "\n".join(lines), hacks=report.hacks,
                             details={"static_findings": [f.code for f in report.findings]})

    def reference(self) -> ReferenceOutputs:
        key = ReferenceCache.key(self.problem, self.ev.device, self.sizes, self.plan)
        planned = len(self.plan.trials)
        with self.ev.references.computing(key):
            cached = self.ev.references.get(key)
            self.details["reference_cached"] = cached is not None
            ref = cached if cached is not None else reference_phase.compute(self, key)
        if ref.plan is not None:
            if len(ref.plan.trials) < planned:
                self.details["trials_reduced"] = {"ran": len(ref.plan.trials), "planned": planned}
            self.plan = ref.plan  # the trials it kept (reference_phase.trials_kept)
        self.init_on = ref.init  # later builds draw the parameters where the reference's were
        return ref

    # ------------------------------------------------------------------ the candidate
    def run_candidate(self, child: Child, source: str, ref: ReferenceOutputs) -> Verdict:
        # spiked timed runs, where the spike trial stayed finite, and as many on the problem's own
        # inputs: each kind's batches get a median of their own, and the slower one counts
        spiked = timing_transform(ref)  # "spike", or "spike:16" where the full one overflowed
        kinds = [spiked, "base"] if spiked != "base" else ["base"]
        timing_sets = [{"id": TIMING_SETS + len(kinds) * k + g, "seed": 0, "transform": kind, "lazy": True}
                       for k in range(self.cfg.timing.input_sets)
                       for g, kind in enumerate(kinds)] if self.settings.timing else []
        sets = reference_phase.trial_sets(self) + timing_sets
        stopped = self.prepare_and_load(child, source, ref, sets)
        if stopped is not None:
            return stopped
        with self.phase("correctness"):
            outcome = self.correctness(child, ref)
            if outcome is None and gates.knockouts_due(self.own_names, self.knockout_raised, self.thin_return, self.qualnames):
                shared = gates.shared_names(list(self.details.get("kernels_defined") or []))
                self.decoys, outcome = knockout_round.decoy_kernels(self, child, ref, self.own_names, shared,
                                                                    gates.MAX_KERNELS)
                self.details["decoy_kernels"] = self.decoys
        if outcome is not None:
            return self.finish(outcome)
        profile = self.coverage_requested or \
            self.cfg.policy.name == "strict" or self.knockout_raised or self.thin_return
        if not self.settings.timing:
            cov = self.profile(child) if profile else None
            if isinstance(cov, judge.Outcome):
                return self.finish(cov)
            return self.kept_last(child) or self.decide(None, cov)
        with self.phase("timing"):
            timed = time_both(self, child, timing_sets, profile, set_output_bytes(ref),
                              judge.base_facts(ref, list(self.plan.trials)))
        if isinstance(timed, judge.Outcome):
            return self.finish(timed)
        return self.decide(timed, timed.get("coverage"))

    def kept_last(self, child: Child) -> Verdict | None:
        """Untimed, the child's last forward: memory earlier forwards returned, filled with noise
        first, must be written where it is returned again (evaluator.kept_check; a timed run's is
        the timing phase's, before its child ends)."""
        outcome = kept_check.check(self, child)
        return self.finish(outcome) if outcome is not None else None

    def prepare_and_load(self, child: Child, source: str, ref: ReferenceOutputs, sets: list[dict]) -> Verdict | None:
        """The candidate child makes the input sets (their digests checked against the
        reference's) before the candidate's module exists, then imports it and builds ModelNew;
        a Verdict where that already decides the evaluation."""
        self.candidate_clock()
        with self.holding(self.ev.device_lock.shared()), self.phase("inputs"):  # drawn on the device
            started = time.monotonic()
            reply, _ = child.request({"op": "prepare", "problem": self.problem.source, "sizes": self.sizes,
                                      "sets": sets}, self.left())
            self.deadline += time.monotonic() - started  # no candidate code exists yet: not its time
        if reply.get("op") == "error":  # no candidate code exists in this process yet
            return self.finish(judge.Outcome("runtime_error", "The evaluator could not make the "
                                             "problem's inputs in the candidate's process:\n" +
                                             F.untrusted(self.sanitize(str(reply.get("message")))),
                                             error_source="problem"))
        made = reply["sets"]
        if any(made[str(i)]["digest"] != ref.trials[i]["digest"] for i in range(len(self.plan.trials))):
            return self.finish(judge.Outcome("runtime_error", "The problem's get_inputs() gives different "
                                             "inputs in two processes from the same seed.",
                                             error_source="problem"))
        with self.holding(self.ev.device_lock.shared()), self.phase("load"):
            reply, _ = child.request({"op": "load", "candidate": source, "init_seed": self.plan.init_seed,
                                      "init": self.init_on, "problem_numbers": list(ref.numbers)}, self.left())
        if reply.get("op") == "error":
            return self.finish(judge.from_error(reply, "load", self.sanitize))
        self.kernels, self.module = reply.get("kernels", []), reply.get("module", "")
        self.device_branch = _DEVICE_TEST.search(source) is not None
        if reply.get("tampered"):
            return self._tampered(reply["tampered"], "importing your module")
        return None

    @property
    def coverage_requested(self) -> bool:
        """The request asked for the profile (timed), so coverage enters the reward."""
        return bool(self.settings.profile and self.cfg.profiling.enabled and self.settings.timing)

    def _tampered(self, reasons: list, when: str) -> Verdict:
        return self.finish(judge.Outcome("hack", f"Rejected: {when} modified the evaluator's process "
                                         f"({F.untrusted('; '.join(map(str, reasons)))[:300]}).", hacks=["monkey_patch"]))

    def correctness(self, child: Child, ref: ReferenceOutputs) -> judge.Outcome | None:
        """The trials and the knock-out runs, run and judged (evaluator.correctness_phase)."""
        return correctness_phase.check(self, child, ref)

    def profile(self, child: Child) -> dict | None | judge.Outcome:
        """Coverage when nothing is timed (strict policy); timed evaluations profile timed runs."""
        forwards = self.cfg.profiling.forwards
        header = {"op": "profile", "id": 0, "forwards": forwards,
                  "seeds": [secrets.randbits(62) for _ in range(forwards)]}
        lock = self.ev.device_lock.exclusive() if self.ev.device == "cuda" else self.ev.device_lock.shared()
        with self.holding(lock):
            reply, _ = child.request(header, self.left())
        if reply.get("op") == "error":  # unmeasured coverage only ever lowers the reward
            self.details["profile"] = {"error": F.untrusted(self.sanitize(str(reply.get("message"))))[:300]}
            return None
        if reply.get("tampered"):
            return judge.Outcome("hack", "Rejected: forward modified the evaluator's process.",
                                 hacks=["monkey_patch"])
        cov = reply.get("coverage")
        if not isinstance(cov, dict) or not isinstance(cov.get("coverage"), (int, float)):
            error = cov.get("error") if isinstance(cov, dict) else None
            self.details["profile"] = {"error": F.untrusted(self.sanitize(str(error or "no figure")))[:300]}
            return None
        cov["coverage"] = min(max(float(cov["coverage"]), 0.0), 1.0)
        self.details["profile"] = cov
        return cov

    def decide(self, timed: dict | None, cov: dict | None) -> Verdict:
        """Policy and reward from the evidence: the knock-out passed; coverage under strict."""
        self.details["precision"] = self.facts["precision"]
        note = (F.TF32_NOTE if self.facts["precision"] == "tf32" else "") + \
            (gates.FIXED_NOTE if self.details.get("constant_answer") else "")
        cov = gates.live_coverage(cov, sorted({*self.decoys, *self.constant}), self.own_names)  # no one's time
        self.details.update({"profile": cov} if cov else {})  # as the reward reads it
        coverage = cov["coverage"] if cov else None
        share = cov.get("forward_share", coverage) if cov else None  # the gates read the forward's split
        gated = gates.policy_outcome(self.cfg.policy, share, self.knockout_raised, self.thin_return)
        if gated is not None:
            return self.finish(gated, coverage=coverage)
        # coverage measured only for a gate (strict, a raised knock-out, a thin return) where the
        # request asked for no profile decides the gate, never the reward: else a forward that trips
        # a gate on purpose is paid a term the honest files of the same request are not (red team
        # s32b: 1.0025 against the honest 0.508 with profiling off)
        if coverage is not None and not self.coverage_requested:
            self.details["coverage_paid"] = False
            coverage = None
        if timed is None:
            return self.finish(judge.Outcome("ok", "Correct (timing was not requested)." + note),
                               coverage=coverage)
        ref_s, cand_s = timed["ref_s"], timed["cand_s"]
        text = F.timing_text(ref_s, cand_s, timed["clock"], cov) + note
        lost = self.details.get("profile") if cov is None and self.coverage_requested else None
        if isinstance(lost, dict) and lost.get("error"):
            text += "\n" + F.profile_lost(str(lost["error"]))
        return self.finish(judge.Outcome("ok", text), speedup=ref_s / cand_s, coverage=coverage,
                           ref_s=ref_s, cand_s=cand_s)

    def failure(self, exc: ChildFailure) -> Verdict:
        phase = self.current
        self.details["phase"] = phase
        if exc.status == "timeout":
            text = (f"Timeout: the evaluation exceeded its {self.timeout_s:g} s limit during {phase}; "
                    "the process was killed.")
        else:
            text = f"Crashed during {phase}: {F.untrusted(exc.reason)}."
        tail = exc.log_tail.strip()
        if tail:
            fatal = [line for line in tail.splitlines() if line.startswith("Fatal Python error")][:1]
            text += "\nLast output " + F.own_text(self.sanitize("\n".join([*fatal, tail[-1500:]])))
        return self.finish(judge.Outcome(exc.status, text, details={"failure": exc.reason}))

