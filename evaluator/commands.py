"""Command handlers of a sandboxed child process (the far end of evaluator.protocol).

A child is one process forked by a sandbox's zygote (evaluator.zygote): a candidate
child lives for exactly one candidate; the reference child runs only problem code and
is reused. `ChildState.handle(header)` runs one command and returns (reply, tensors).

Nothing a child sends is believed on its word (docs/threat_model.md):
it sends DATA — output tensors, checksums, input digests made before the candidate was
imported — and the worker compares, times and decides. The commands:

  prepare  {problem, sizes, sets: [{id, seed, transform}]}: import the problem and make
           the input sets on the CPU (digests returned). In a candidate child this runs
           before the candidate module exists, so the candidate cannot shape its inputs.
  load     {candidate, init_seed, init}: import the candidate, build ModelNew (candidate role)
  model    {init_seed, init}: build the reference Model (reference role); says where its
           parameters were drawn (model_build.build: "device" or "host")
  run      {ids, knockout_ids, kernel_knockout, torch_knockout_ids, return_inputs, max_output_bytes,
           reference_bytes, reference_outputs, describe_only}: one
           forward per input set, in the order given; outputs (and, when asked, the inputs
           after the forward) come back as tensors, or with describe_only only their
           descriptors and byte count (what a set would send).
           In a candidate child fresh memory (torch.empty & co.) holds random values in
           every one of these forwards. With knockout, every Triton launch is also skipped:
           if the output is still right, the kernels did no work it depends on; with
           kernel_knockout (a name or names), only those kernels' launches are (evaluator.knockout_round).
           With torch_knockout (strict policy), every PyTorch compute operator returns
           noise while the Triton kernels run: the output must still be right.
  arm      {ids, seeds}: the next timed batch: one fresh draw per (set, seed) from the
           problem's get_inputs (untimed; on the device where possible), kept side by side
  go       {count, null, profile, spin, watch, inputs_out}: THE TIMED STEP. The worker's clock runs from writing
           this command to reading its reply: for each armed draw in turn, a spin of `spin`
           cycles and an L2 flush (GPU), and the forward, back to back; one device-wide
           synchronize. The outputs are final when
           the reply leaves: the forward has returned plain tensors, the device is idle,
           and no candidate code runs in this process until the next command. CUDA events
           around each forward are reported only as a cross-check. `null` skips the
           forwards (`count` spins and flushes, and the sync): the reference child measures the
           protocol's own cost with it. `profile` (a few batches the worker picks at
           random, the same in both children) runs each forward under the profiler; the
           candidate's commit returns their coverage; the worker does not use that batch's
           time. The reply is only `done`: what the forwards showed is summarised after it.
  commit   {}: per forward of the last `go`, sums over each chunk of each output and input
           (timing.commit_reply), its CUDA-event time, and (a candidate) the launches of
           its own kernels, their programs, variants and interpreted work, the watch's
           findings (untimed: stopwatch.GO_SUMMARY). The sums commit the
           child to the outputs the worker may then ask to see (`reveal`); the worker
           decides which forwards, and which chunks of a big output, only after it has them.
  reveal   {index, inputs, chunks}: the outputs of forward `index` of the last `go` (and,
           asked, its tensor inputs as the forward left them), each whole or the chunks
           the worker chose after the commitment (a big output: a random sample)
  alt      {index}: how far PyTorch's TF32 mode moves the reference's float32 outputs for
           draw `index` of the last batch, and a float16/bfloat16 output from the forward in
           float32 (three numbers per output, evaluator.precision; empty where neither
           applies): the precision contract's allowance
  profile  {id, forwards, seeds}: coverage of the candidate's kernels (GPU: torch.profiler;
           CPU: the interpreter work meter, evaluator.cpu_work), each forward on a fresh
           draw of set `id`; only when nothing is timed (else see `go`)
  dry      {budget_s, real_seed, runs, configs, stepped} or {rest, cpu_s}: the dry launch model at the child's sizes (evaluator.dry_command)
  status   {}: integrity report of the process (a tamper signal, not a guarantee)
  release  {}: the reference child hands its device memory back (sets, batch, cache)
  cap      {bytes}: the reference child's device memory capped (None: uncapped), for a
           measuring run under a partial reservation
Failures are replies: {"op": "error", "kind": compile_error|runtime_error|format_error|
problem_error|internal, "message", "traceback"}; a problem or internal error says
whether the allocator ran out of memory during the command (device_oom). The worker decides what an error means
by the phase it arrived in, not by its kind alone.
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any

import torch

from evaluator import (
    autotune_cpu,
    autotune_pins,
    candidate_env,
    construction_watch,
    cuda_fidelity,
    device_lost,
    fresh_forwards,
    kept_outputs,
    kept_work,
    noise,
    precision,
    problem_numbers,
    python_image,
    timing,
    watched_reads,
)
from evaluator.compare import Tolerance, matches
from evaluator.forward_watch import Provenance
from evaluator.integrity import Integrity, device_cap
from evaluator.launch_hook import LaunchRecorder, own_launches
from evaluator.output_facts import output_facts
from evaluator.output_noise import poison, random_uninitialised, torch_compute_noised
from evaluator.pinned_forwards import PinnedForwards
from evaluator.runner import (
    CandidateError,
    ProblemError,
    Workspace,
    bitwise_equal,
    describe,
    leaves,
    modified_leaves,
    pristine,
)
from evaluator.timed_steps import TimedSteps, _as, describe_outputs, sendable

MAX_LAUNCH_RECORDS = 256

# how closely two forwards of the reference on the same inputs must agree (no randomness in forward)
_REPEAT_TOLERANCE = Tolerance(atol=1e-3, rtol=1e-3, norm_rtol=float("inf"))


_OPS = {"prepare": "prepare", "load": "load", "model": "build_reference", "run": "run", "arm": "arm",
        "go": "go", "commit": "commit", "summary": "summarise", "reveal": "reveal", "profile": "profile", "status": "status",
        "alt": "alt", "release": "release", "cap": "cap", "dry": "dry", "kept": "kept"}


class ChildState(TimedSteps, PinnedForwards):
    def __init__(self, role: str, device: str, tmp: Path, recorder: LaunchRecorder):
        self.role, self.device, self.tmp = role, device, tmp
        self.recorder = recorder
        self.numbers_recorder = None  # the reference's construction, read on (evaluator.problem_numbers)
        autotune_cpu.quiet = recorder.aside  # a first pick's configs compared unrecorded
        autotune_cpu.recorder = recorder
        if device == "cpu":  # both children's device draws from CUDA's generator's stand-in
            cuda_fidelity.cuda_generator_on_the_host()
        if role == "candidate" and device == "cpu":
            candidate_env.interpreted_tensors_look_like_cuda()
            cuda_fidelity.cuda_kernels_on_the_host()
        if role == "candidate":
            candidate_env.gpu_environment()
            candidate_env.host_queries_alike()
            python_image.python_as_the_gpus()
            watched_reads.tensor_split_reads_visible()
            watched_reads.library_reads_visible()
            watched_reads.host_buffers_visible()
            watched_reads.raw_storage_closed()
            watched_reads.unfold_sizes_checked()
            watched_reads.conv_and_pad_sizes_checked()
            watched_reads.outputs_not_overlapping()
            watched_reads.plain_numbers_known()
            watched_reads.launches_stay_eager()
        self.integrity = Integrity(recorder)
        self.lost = device_lost.Lost(device)
        self.integrity.watched.append(self)
        self.capped = False  # device allocations capped: a candidate's job, the reference under `cap`
        self.ws: Workspace | None = None
        self.problem_key: tuple[str, str] | None = None
        self.model: Any = None
        self.count = 0
        self.batch: list[list] = []  # the armed draws, one input list per forward of the next go
        self.events: list = []  # CUDA event pairs of the last go's forwards (read by commit)
        self.host_s: list[float] = []  # and the host's time between them (timing.host_between)
        self.last_outputs: list[list[torch.Tensor]] = []  # per forward of the last go
        self.summary: Callable[[], dict] | None = None  # the last go's, computed by its `summary` command
        self.flush = None
        self.draws_checked: set[int] = set()

    def handle(self, head: dict) -> tuple[dict, list]:
        # the class's functions, never the instance's attributes (an instance `go` set by a
        # candidate with code execution forged a speedup: red team, session 14)
        name = _OPS.get(head.get("op"))
        handler = getattr(ChildState, name).__get__(self) if name else None
        # the reference child's count around each command under a measuring run's `cap` (a
        # candidate child's is since its start: read only when a command fails, not per timed call)
        ooms = device_lost.device_ooms(self.device) if self.capped and self.role != "candidate" else None
        lost = self.lost.reply()  # a device a sticky error left: its first failure, not this one's (device_lost)
        try:
            if lost is not None:
                return {**lost, "device_oom": self._ran_out(ooms, lost["traceback"])}, []
            if handler is None:
                raise ValueError(f"unknown command {head.get('op')!r}")
            return handler(head)
        except CandidateError as exc:  # (a reference's forward failing is one too: its device_oom counts)
            reply = {"op": "error", "kind": exc.kind, "message": exc.message, "traceback": exc.tb}
        except ProblemError as exc:
            reply = {"op": "error", "kind": "problem_error", "message": str(exc)[-2000:], "traceback": str(exc)}
        except Exception as exc:  # a harness bug (or a candidate that broke the harness): reported
            message, tb = describe(exc)
            reply = {"op": "error", "kind": "internal", "message": message, "traceback": tb}
        if self.lost.after(reply["kind"], reply["message"], reply["traceback"], f"`{head.get('op')}`"):
            reply = self.lost.reply()
        reply["device_oom"] = self._ran_out(ooms, reply["traceback"])
        return reply, []

    def _ran_out(self, before: int | None, traceback: str) -> bool:
        """Whether the allocator ran out of device memory: for a candidate child (capped at its
        reservation from its start) its own count since then, never the error's words (the
        candidate's own text: a comment claimed it, red team rt23b); for the reference child its
        count around the command under a `cap`, or the error's words."""
        if self.role == "candidate":
            return self.capped and device_lost.device_ooms(self.device) > 0
        words = "OutOfMemoryError" in traceback or "CUDA out of memory" in traceback
        return (before is not None and device_lost.device_ooms(self.device) > before) or words

    def _workspace(self) -> Workspace:
        if self.ws is None:
            raise ValueError("no problem prepared")
        return self.ws

    # ------------------------------------------------------------------ set-up
    def prepare(self, h: dict) -> tuple[dict, list]:
        """Import the problem (again only if it changed) and make input sets on the CPU."""
        key = (h["problem"], repr(sorted(h["sizes"].items())))
        if self.ws is None or self.problem_key != key:
            if self.role == "candidate" and self.ws is not None:
                raise ValueError("a candidate child serves one problem")
            if self.ws is not None:
                self.ws.close()
            self.count += 1
            self.ws = Workspace(self.tmp, self.count, self.device, self.recorder)
            self.problem_key, self.model = key, None
            self.draws_checked = set()
            self.ws.load_problem(h["problem"], h["sizes"])
        ws = self.ws
        if self.device == "cuda":
            torch.cuda.reset_peak_memory_stats()
            noise.forget_peak()
        if h.get("reset_sets"):
            ws.drop_sets()
            self.batch, self.last_outputs, self.summary = [], [], None
        sets = {}
        for i, s in enumerate(h["sets"]):
            applied, checksum = ws.prepare(int(s["id"]), s["seed"], s["transform"],
                                           check_determinism=self.role == "reference" and i == 0,
                                           lazy=bool(s.get("lazy")))
            sets[str(s["id"])] = {"transform": applied, "digest": checksum, "elements": ws.elements(int(s["id"]))}
        if self.role == "reference":  # the file's own sizes, for the depth trials (evaluator.depth_phase)
            return {"op": "result", "sets": sets, "declared": ws.declared()}, []
        return {"op": "result", "sets": sets}, []

    def load(self, h: dict) -> tuple[dict, list]:
        if self.role != "candidate":
            raise ValueError("the reference child never loads a candidate")
        ws = self._workspace()
        if ws.candidate is not None:
            raise ValueError("a candidate child loads one candidate")
        ws.load_candidate(h["candidate"], h["init_seed"], h.get("init"), problem_numbers=h.get("problem_numbers") or ())
        self.integrity.settle_switches()  # TF32 lines at import (evaluator.static_settings)
        self.model = ws.model_new
        return {"op": "result", "kernels": ws.candidate_kernels(), "module": ws.module_name(),
                "tampered": self.integrity.check()}, []

    def build_reference(self, h: dict) -> tuple[dict, list]:
        if self.role != "reference":
            raise ValueError("only the reference child builds the reference Model")
        # the floats the problem's construction computes are its own for the candidate's
        # host_numbers (an ALiBi slope table; never the weights' draws: evaluator.problem_numbers)
        with cuda_fidelity.reference_draws_as_cuda() if self.device == "cpu" else nullcontext(), \
                problem_numbers.recording() as recorder:
            self.model, init = self._workspace().reference_model(h["init_seed"], h.get("init"))
        self.numbers_recorder = recorder  # and its first forward's (`run`)
        return {"op": "result", "init": init,
                "numbers": problem_numbers.problem_numbers(self._workspace().problem, recorder)}, []

    def _own_launches(self) -> tuple[dict[str, int], list[str]]:
        """Programs per own kernel and its variants in the forward just recorded."""
        if self.role != "candidate":
            return {}, []
        return own_launches(self._workspace().module_name(), *self.recorder.last_forward())

    def _forward(self, inputs: list) -> tuple[list[torch.Tensor], list]:
        who = "candidate" if self.role == "candidate" else "problem"
        if self.model is None:
            raise ValueError("no model built")
        outs, launches = _as(who, partial(self._workspace().forward, self.model, inputs))
        if self.role == "candidate":  # what it returned, remembered weakly (evaluator.kept_outputs)
            kept_outputs.note(outs)
        return outs, launches

    # ------------------------------------------------------------------ correctness
    def run(self, h: dict) -> tuple[dict, list]:
        """One forward per input set, in the order given; the knock-out ones with every
        Triton launch skipped. A knock-out forward that raises is reported, not fatal."""
        ws = self._workspace()
        knockout = {int(i) for i in h.get("knockout_ids", ())}
        torch_knockout = {int(i) for i in h.get("torch_knockout_ids", ())}
        started = time.perf_counter()  # large trials again in forks where none was seen (fresh_forwards)
        results, tensors = fresh_forwards.run(self, h)
        pinned_s = time.perf_counter() - started  # and the autotune emulation's pinned forwards: given back
        for set_id in h["ids"]:
            clock = timing.Stages()
            inputs = ws.inputs(int(set_id))
            clock.mark("draw")
            copies = pristine(inputs)
            clock.mark("copies")
            provenance, watch, numbers = None, None, None
            poison(self.device, h.get("poison_bytes", 0))
            knocked = int(set_id) in knockout | torch_knockout
            # the knock-out round's forwards (h["probe"]) and every knock-out pick as a trial does
            self._autotuned_as_checked(checked=not knocked, probe=knocked or bool(h.get("probe")))
            if self.device == "cpu" and self.role == "candidate":  # what a trial's configs meet
                autotune_pins.trial(ws.transform(int(set_id)))
            t0 = time.perf_counter()
            pinned = self._pinned_before(h, inputs, int(set_id) not in knockout | torch_knockout)
            pinned_s += time.perf_counter() - t0
            t0 = time.perf_counter()
            # PyTorch's work a forward leaves alive is charged to every profiled one (kept_work)
            kept = kept_work.Kept(ws.kept, self.recorder, ws.candidate_held) \
                if self.role == "candidate" else nullcontext()
            if int(set_id) in knockout or int(set_id) in torch_knockout:
                try:
                    if int(set_id) in knockout:
                        only = h.get("kernel_knockout")
                        # watched as every checked forward is (its report unread): the watch
                        # is memory traffic a forward can sense (rt25_watch_sensed_by_grid_allocation)
                        watch = Provenance(self.recorder, kept=ws.kept_lifts) if h.get("provenance") and self.role == "candidate" \
                            else None
                        with self.recorder.suppressed(only if isinstance(only, (str, list)) else None), \
                                random_uninitialised(self.device == "cpu"), watch or nullcontext(), kept:
                            outs, launches = self._forward(inputs)
                    else:
                        # what construction computed holds noise too (construction_watch)
                        with construction_watch.noised(ws.construction_computed), \
                                torch_compute_noised(self.recorder), kept:
                            outs, launches = self._forward(inputs)
                    if self.role == "candidate":
                        kept.done(outs, inputs)
                except CandidateError as exc:
                    ws.release(int(set_id))
                    # a fault there leaves the device unusable on the GPU: the worker starts a fresh child
                    lost = self.lost.after(exc.kind, exc.message, exc.tb, f"the knock-out forward of set {set_id}")
                    results.append({"id": set_id, "error": exc.message[:500], "outputs": [], "n_launches": 0,
                                    "launches": [], "modified": [], **({"device_lost": True} if lost else {})})
                    if lost:
                        break
                    continue
            elif self.role == "candidate":
                # fresh memory holds noise in every candidate forward, not only the knock-out:
                # what torch.empty returns must not tell the knock-out run apart
                watch = Provenance(self.recorder, kept=ws.kept_lifts) if h.get("provenance") else None
                with random_uninitialised(self.device == "cpu"), watch or nullcontext(), kept:  # kept on top
                    outs, launches = self._forward(inputs)
                kept.done(outs, inputs)
            else:  # the first forward's tables too (evaluator.problem_numbers)
                numbers, self.numbers_recorder = self.numbers_recorder, None
                with problem_numbers.forward(numbers, inputs):
                    outs, launches = self._forward(inputs)
            seconds = time.perf_counter() - t0
            clock.mark("forward")
            own = self._own_launches()
            own_work = self.recorder.own_work(self._workspace().module_name()) if self.role == "candidate" else 0
            if self.device == "cpu" and self.role == "candidate" \
                    and int(set_id) not in knockout | torch_knockout:
                agreed = time.perf_counter()
                self._configs_agree(h, inputs, outs, pinned)
                pinned_s += time.perf_counter() - agreed
            problem = sendable(outs, h["max_output_bytes"], h.get("reference_bytes"), h.get("reference_outputs"))
            if problem is None and h.get("check_repeat") and self.role == "reference" and not results:
                problem = self._repeat_problem(copies, outs)
            # every tensor of the inputs, those inside list arguments too (runner.leaves)
            modified, tensor_inputs = modified_leaves(inputs, copies), leaves(inputs)
            written = [tensor_inputs[i] for i in modified if i < len(tensor_inputs)]
            if watch is not None:  # what it wrote into its inputs is judged as output, so watched as one
                watch.returned([*outs, *written])
                provenance = watch.report()
                # a table of Python's numbers __init__ built is host values this forward may use
                # (construction_watch: red team rt65's bfloat16 sigmoid table)
                provenance["host_made"] += ws.construction_python_made
                # and the floats Python computed, at construction and here (`host_numbers`: rt74)
                provenance["host_computed"] = watch.computed_count(ws.construction_numbers)
            clock.mark("checks")
            back = written if h.get("return_inputs") and problem is None else []
            tf32 = self._tf32_deviations(copies, outs, bool(modified), h.get("rest_within")) \
                if h.get("tf32") and problem is None else precision.Deviations([], [])
            clock.mark("tf32")
            own_noise = self._noise_norms(inputs, outs) if h.get("noise") and problem is None and not modified else None
            # the reference's outputs' RMS, peak and finiteness, here on the device (output_facts.output_facts)
            facts = [output_facts(t) for t in (*outs, *back)] \
                if self.role == "reference" and problem is None and not h.get("describe_only") else None
            clock.mark("noise")
            results.append({"id": set_id, "outputs": describe_outputs(outs), "problem": problem,
                            "modified": modified, "returned_inputs": len(back), "tf32": tf32.whole, "tf32_rest": tf32.rest,
                            "noise": own_noise,
                            "facts": facts,
                            "nbytes": sum(t.numel() * t.element_size() for t in (*outs, *back)),
                            "seconds": seconds, "n_launches": len(launches),
                            "launches": [list(x) for x in launches[:MAX_LAUNCH_RECORDS]],
                            "own_programs": own[0], "own_variants": own[1], "own_work": own_work,
                            "provenance": provenance,
                            "stages": clock.seconds})
            if int(set_id) in knockout:  # what it skipped (knockout_round: a knock-out skipping nothing is no evidence)
                results[-1]["knocked"] = sorted(set(self.recorder.knocked))[:MAX_LAUNCH_RECORDS]
            if self.role == "reference" and numbers is not None:
                results[-1]["numbers"] = numbers.sequences()
            del inputs, copies
            ws.release(int(set_id))
            if problem is not None:
                break
            if h.get("describe_only"):  # sizes only (the worker's measuring run): nothing sent
                outs = back = ()
            if len(h["ids"]) == 1:  # streamed from the device as the reply is written
                tensors.extend((*outs, *back))
            else:  # to the host now: the device holds one set's tensors at a time
                tensors.extend(t.cpu() for t in (*outs, *back))
            clock.mark("host")
            del outs, back
        # one command per set, so the integrity check (as the collection after it, evaluator.child)
        # runs after a sequence's last command: what it checks is unchanged by then or tampered
        pinned_s += autotune_cpu.emulated() if self.device == "cpu" else 0.0
        reply = {"op": "result", "trials": results, "autotune_pinned_s": round(pinned_s, 3),
                 "kernel_qualnames": self.recorder.shared_qualnames(ws.module_name()),  # kernel_identity
                 "tampered": self.integrity.check() if h.get("last", True) else []}
        if self.device == "cuda":  # what this process's allocator held at most since `prepare`
            reply["peak_device_bytes"] = max(torch.cuda.max_memory_reserved(), noise.kept_peak())
        return reply, tensors

    def _repeat_problem(self, copies: list, outs: list[torch.Tensor]) -> str | None:
        """Why the reference cannot be used if a second forward on the same inputs differs
        (randomness in forward, e.g. dropout in training mode): no kernel could match it."""
        again, _ = self._forward(pristine(copies))
        for a, b in zip(again, outs):
            if a.shape != b.shape or a.dtype != b.dtype:
                return "the reference's forward returns different outputs on the same inputs"
            # a slice at a time: allclose's temporaries over a GiB output ran the device out of memory
            same = matches(a, b, _REPEAT_TOLERANCE) if a.is_floating_point() else bitwise_equal(a, b)
            if not same:
                return ("the reference's forward gives different results on the same inputs (randomness "
                        "in forward, such as dropout in training mode): no kernel can be checked against it")
        return None

    def _noise_norms(self, inputs: list, outs: list[torch.Tensor]) -> list | None:
        """The reference's own noise per output on this set (evaluator.noise); reference only."""
        if self.role != "reference":
            return None
        ws = self._workspace()

        def wide_forward(wide_inputs: list) -> tuple[list[torch.Tensor], list]:
            return _as("problem", partial(ws.forward, precision.float64_twin(self.model), wide_inputs))

        def run(model: Any, some: list) -> tuple[list[torch.Tensor], list]:
            return _as("problem", partial(ws.forward, model, some))

        if not noise.wide_affordable(inputs, outs, self.model):
            return noise.noise_norms(self._forward, inputs, outs)
        # the redraws copy the inputs before the moved forward moves them in place
        return noise.noise_norms(self._forward, inputs, outs, wide_forward, noise.redraws(run, self.model, inputs))

    def _tf32_deviations(self, inputs: list, strict: list[torch.Tensor], writes_inputs: bool = False,
                         within: list | None = None) -> precision.Deviations:
        """precision.deviations (TF32's for float32 outputs, half precision's for float16 and
        bfloat16 ones; with `within`, also over a spiked output's rest) in the reference child;
        none in a candidate's."""
        if self.role != "reference":
            return precision.Deviations([], [])
        return precision.deviations(self._forward, inputs, strict, self.device, writes_inputs, self.model,
                                    precision.header_limits(within))

    def alt(self, h: dict) -> tuple[dict, list]:
        """Precision deviations for draw `index` of the last batch (after a revealed timed run;
        `rest_within` on a spiked one)."""
        index = int(h["index"])
        devs = self._tf32_deviations(self.batch[index], self.last_outputs[index], within=h.get("rest_within"))
        return {"op": "result", "tf32": devs.whole, "tf32_rest": devs.rest}, []

    def profile(self, h: dict) -> tuple[dict, list]:
        """Coverage over `forwards` forwards of set `id`, each on a fresh draw under one of
        the worker's `seeds` (made outside the measurement), like a timed run's."""
        ws, set_id = self._workspace(), int(h["id"])
        seeds = [int(x) for x in h.get("seeds", ())]
        kernels = set(ws.candidate_kernels()) | self.recorder.compiled_names(ws.module_name())

        def redraw(i: int) -> None:
            if i < len(seeds):
                _as("problem", partial(ws.regenerate, set_id, seeds[i]))

        def fn() -> Any:
            return self._forward_only(ws.inputs(set_id))

        if self.device == "cuda":
            def measure() -> dict:
                self.recorder.start()
                try:
                    return timing.coverage(fn, kernels, h["forwards"], self.recorder.launched_kernels,
                                           before_each=redraw)
                finally:
                    self.recorder.stop()

            cov = _as("candidate", measure)
        else:
            from evaluator import cpu_work

            cov = _as("candidate", lambda: cpu_work.measure(lambda _inputs: fn(), [], kernels,
                                                            forwards=h["forwards"], before_each=redraw))
            cov = construction_watch.charged(cov, ws.work_charge())
        return {"op": "result", "coverage": cov, "tampered": self.integrity.check()}, []

    def _forward_only(self, inputs: list) -> Any:
        self._autotuned_as_checked()
        with torch.no_grad():
            out = self.model(*inputs)
        kept_outputs.note(out)
        return out

    def release(self, h: dict) -> tuple[dict, list]:
        """Hand the device memory this (long-lived reference) process holds back to the driver:
        the last batch, the input sets' tensors, the allocator's cache."""
        self.batch, self.last_outputs, self.events, self.host_s, self.summary = [], [], [], [], None
        if self.ws is not None:
            for set_id in self.ws.set_ids():
                self.ws.release(set_id)
        gc.collect()
        if self.device == "cuda":
            torch.cuda.empty_cache()
        return {"op": "result"}, []

    def cap(self, h: dict) -> tuple[dict, list]:
        """Reference child: cap this process's device memory at `bytes` (None: uncapped),
        for a measuring run under a partial reservation (evaluator.memory)."""
        if self.role != "reference":
            raise ValueError("only the reference child is capped at run time")
        if self.device == "cuda":
            total = torch.cuda.get_device_properties(0).total_memory
            limit = h.get("bytes")
            self.capped = limit is not None
            torch.cuda.set_per_process_memory_fraction(1.0 if limit is None else min(1.0, int(limit) / total))
            if limit is None:
                torch.cuda.empty_cache()
            self.integrity.device_cap = device_cap()  # the worker's change, not a tampering
        return {"op": "result"}, []

    def dry(self, h: dict) -> tuple[dict, list]:
        from evaluator import dry_command  # its model moves to meta: the child's last command
        return {"op": "result", **dry_command.command(self._workspace, self.model, self.recorder, h)}, []

    def kept(self, h: dict) -> tuple[dict, list]:
        """The kept-output check: the candidate child's last forward (evaluator.kept_outputs)."""
        return kept_outputs.command(self, h)

    def status(self, h: dict) -> tuple[dict, list]:
        return {"op": "result", "tampered": self.integrity.check()}, []
