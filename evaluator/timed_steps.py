"""The timed step of a sandboxed child (evaluator.commands' `arm`, `go`, `commit`, `reveal`):
what runs inside the worker's clock and what is summarised after it. The measurement is
the worker's (evaluator.stopwatch); this is the child's half, the same for both roles.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from typing import Any

import torch

from evaluator import autotune_cpu, candidate_env, construction_watch, kept_outputs, timing
from evaluator.forward_watch import Provenance
from evaluator.launch_hook import own_launches
from evaluator.output_noise import random_uninitialised
from evaluator.protocol import DTYPE_NAMES
from evaluator.runner import CandidateError, ProblemError, describe, error_kind


def _as(kind: str, call: Callable[[], Any]) -> Any:
    """Run harness work that executes candidate (kind=candidate) or problem code."""
    try:
        return call()
    except (CandidateError, ProblemError):
        raise
    except BaseException as exc:  # attributed to whose code ran; the parent decides what follows
        message, tb = describe(exc)
        if kind == "problem":
            raise ProblemError(tb) from None
        raise CandidateError(error_kind(exc), message, tb) from None


def describe_outputs(outs: list[torch.Tensor]) -> list[dict]:
    return [{"dtype": DTYPE_NAMES.get(t.dtype, str(t.dtype)), "shape": list(t.shape)} for t in outs]


def sendable(outs: list[torch.Tensor], max_bytes: int, reference_bytes: int | None = None,
              reference_outputs: int | None = None) -> str | None:
    """Why these outputs cannot be sent back (None: they can). A candidate's outputs are
    bounded by the reference's: more cannot be right (one tensor returned many times over
    costs no device memory, and would cost the worker's host memory)."""
    if any(t.dtype not in DTYPE_NAMES for t in outs):
        return f"forward returned a tensor of an unsupported dtype ({describe_outputs(outs)})"
    nbytes = sum(t.numel() * t.element_size() for t in outs)
    if reference_outputs is not None and len(outs) > reference_outputs:
        return f"forward returned {len(outs)} outputs; the reference returns {reference_outputs}"
    if reference_bytes is not None and nbytes > reference_bytes:
        shapes = ", ".join(str(list(t.shape)) for t in outs[:3]) + (", ..." if len(outs) > 3 else "")
        return (f"forward returned {len(outs)} output(s) of shape {shapes}, {nbytes} bytes in all; the "
                f"reference's outputs are {reference_bytes} bytes")
    if nbytes > max_bytes:
        return f"outputs are {nbytes} bytes; the limit is {max_bytes}"
    return None


def _shared_across(outs: list[list[torch.Tensor]]) -> bool:
    """Whether two forwards of one batch returned the same memory (an output buffer kept
    and reused from call to call): the later forward overwrote the earlier one's result
    before anyone read it. Honest code may do this; it is timed one forward at a time."""
    seen: set[int] = set()
    for forward in outs:
        mine = {t.untyped_storage().data_ptr() for t in forward} - {0}
        if mine & seen:
            return True
        seen |= mine
    return False


class TimedSteps:
    """The timed-step commands of `commands.ChildState` (which holds the state they use:
    role, device, recorder, model, the armed batch and the last go's outputs)."""

    # ------------------------------------------------------------------ timing
    def arm(self, h: dict) -> tuple[dict, list]:
        ws = self._workspace()
        # from here to the commit's sums, the candidate's code runs in a forward only: its launches
        # and (CPU) torch calls elsewhere are counted (`stray`, sent by commit)
        self.recorder.stray = 0
        candidate_env.TIMED_STEP[0] = self.recorder if self.role == "candidate" else None
        self.batch, self.last_outputs, self.summary = [], [], None  # the previous batch's memory goes first
        with self._past_stand_in():  # harness work, alike in both roles (see commit)
            for set_id, seed in zip(h["ids"], h["seeds"], strict=True):
                set_id = int(set_id)
                check = self.role == "reference" and set_id not in self.draws_checked
                _as("problem", partial(ws.regenerate, set_id, int(seed), check))
                self.draws_checked.add(set_id)
                self.batch.append(ws.inputs(set_id))
            if self.device == "cuda":
                torch.cuda.synchronize()
            nbytes = sum(x.numel() * x.element_size() for x in self.batch[0] if isinstance(x, torch.Tensor)) \
                if self.batch else 0
        return {"op": "armed", "nbytes": nbytes}, []

    def _past_stand_in(self) -> Any:
        """The draws run past a CPU candidate child's stand-in function mode (alike in both
        roles); on the GPU no such mode exists, and the draws need torch function: the
        problem's get_inputs runs under `torch.device("cuda")`, itself a function mode. Drawn
        past it, a batch's inputs were drawn on the host and copied (an H100 relu's arm went
        from 40 ms to past the evaluation's limit: session 58)."""
        return torch._C.DisableTorchFunction() if self.device == "cpu" else nullcontext()

    def go(self, h: dict) -> tuple[dict, list]:
        """The timed step: only the forwards (and the flushes, spins and sync) run before the
        reply; what the worker learns of them (launches, coverage, the watch) is summarised
        after it, by `commit`, out of the worker's clock (a batch's summaries once cost
        20-30 us per forward of a fast kernel on an H200 that no null batch took out)."""
        count = int(h.get("count", 1))
        flush = self._flush_buffer(h)
        spin = max(0, int(h.get("spin", 0))) if self.device == "cuda" else 0
        self.summary = None
        if h.get("null"):
            timing.flush_only(flush, count, spin)
            return {"op": "done"}, []
        if len(self.batch) != count:
            raise ValueError(f"go of {count} forwards, but {len(self.batch)} draws are armed")
        self._threads_outside_forward()
        who = "candidate" if self.role == "candidate" else "problem"
        recorded: list[tuple] = []
        work: list[int] = []
        module = self._workspace().module_name() if self.role == "candidate" else ""

        def after() -> None:  # inside the timed window: keep the records, summarise later
            self.recorder.stop()
            recorded.append(self.recorder.last_forward())
            work.append(self.recorder.own_work(module))
        marks = (self.recorder.start, after)
        self.events, self.host_s = [], []
        extra: dict = {}
        if h.get("profile"):
            # the reference profiles the same batches on the GPU: both processes then carry the
            # profiler's after-cost per CUDA call alike. The reference's meter gives the
            # problem's own estimated work, what the candidate's coverage is held to
            # (stopwatch.profiled_coverage), on the CPU and on the GPU (its PyTorch ops).
            # A profiled batch is a timed batch to the forward, and its time is not used: the
            # provenance watch runs there too, so what PyTorch computed in timed forwards is
            # seen (a runtime-argument switch made the kernel copy torch's result when timed)
            # (no fingerprints of fresh memory on the GPU: the profiler would count their sums
            # as the forward's own kernels, other than the candidate's)
            watch = Provenance(self.recorder, fingerprints=self.device != "cuda", kept=self._workspace().kept_lifts) \
                if self.role == "candidate" else None
            outs, cov = _as(who, partial(self._profiled, h, marks, watch))
            extra["coverage"] = cov
        else:
            # a watched plain batch (on the CPU, under either policy: the interpreter's time
            # dwarfs the watch's): the meter of a profiled one can be told apart (its launches
            # are slower, its host arrays move the address space), so the runs it never sees
            # are watched themselves (host work in a few timed forwards only was seen in half
            # the runs while only the profiled batches were watched under paper: red team s29b)
            watch = Provenance(self.recorder, kept=self._workspace().kept_lifts) \
                if h.get("watch") and self.role == "candidate" else None

            def model(*inputs):
                self._autotuned_as_checked()
                with watch or nullcontext():
                    return self.model(*inputs)
            with self._like_checked():
                outs, self.events, self.host_s = _as(who, partial(timing.timed_forwards, model, self.batch,
                                                                  self.device, flush, *marks, spin=spin))
        self._threads_outside_forward()
        self.last_outputs = outs
        if self.role == "candidate":  # what each forward returned, remembered weakly (kept_outputs)
            kept_outputs.note(outs)
        self.summary = partial(self._summary, outs, recorded, work, watch, extra, bool(h.get("inputs_out")))
        return {"op": "done"}, []

    def _threads_outside_forward(self) -> None:
        """A candidate's Python thread alive as go starts or ends (past the integrity baseline's:
        an honest child has none after its trials) is counted with the stray calls (commit): it
        works on the draws or the outputs while no forward runs, in parallel with go or after it
        answered, and the function mode, being thread-local, sees none of its torch calls (red
        team rt81: a thread made half a relu with torch after go answered, uncharged, ok at
        0.70x the honest time)."""
        if self.role == "candidate" and threading.active_count() > self.integrity.threads:
            self.recorder.stray += 1

    def _summary(self, outs: list, recorded: list[tuple], work: list[int], watch: Provenance | None,
                 extra: dict, inputs_out: bool = False) -> dict:
        """What the last go's forwards showed, for its commit reply: the watch's findings and,
        of a candidate, each forward's launches of its own kernels, their programs, constexpr
        variants and interpreted work; `aliased` where two forwards returned the same memory."""
        if watch is not None:
            # where the problem writes its inputs, what forward left in them is output to the
            # watch too (as modified inputs are in the checked trials): PyTorch making the in-place
            # effect when timed is PyTorch's work (red team s30)
            for i, forward_outs in enumerate(outs):
                watch.returned([*forward_outs, *(self._inputs_after(i) if inputs_out else ())])
            extra["provenance"] = watch.report()
        if self.role == "candidate":
            module = self._workspace().module_name()
            own = [own_launches(module, *r) for r in recorded]
            extra["own_launches"] = [sum(1 for m, _ in r[0] if m == module) for r in recorded]
            extra["own_programs"] = [programs for programs, _ in own]
            extra["own_variants"] = [variants for _, variants in own]
            extra["own_work"] = work
        if _shared_across(outs):
            extra["aliased"] = True
        return extra

    def commit(self, h: dict) -> tuple[dict, list]:
        """After a go, out of its timed window: per forward, the chunk sums of its outputs and
        of its inputs as it left them (timing.commit_reply) and its CUDA-event times (each
        read is a CUDA call). The same work in both roles for the same batch: the worker
        times it on both sides and charges the candidate what its commit takes beyond the
        reference's (stopwatch.outside_go_seconds: work a forward left running past go)."""
        events, host_s = timing.event_seconds(self.events), self.host_s
        self.events, self.host_s = [], []
        # the sums are the harness's own arithmetic: past a CPU candidate child's stand-in
        # function mode (evaluator.candidate_env), which made its commit 5x the reference's
        with torch._C.DisableTorchFunction():
            head, sums = timing.commit_reply(self.last_outputs,
                                             [self._inputs_after(i) for i in range(len(self.last_outputs))], events,
                                             host_s)
        candidate_env.TIMED_STEP[0] = None
        if self.role == "candidate":
            # Triton launches since this batch's arm made while no forward ran (launch_hook's
            # `stray`), and under the CPU interpreter torch calls of the candidate's code
            # (candidate_env), counted once the sums are taken: no harness code launches a kernel
            # in arm, commit or between them, nor computes past DisableTorchFunction, so each is
            # the candidate's work moved out of go's clock (a thread finishing the kernel after
            # go answered, the kernel run on the draws in arm: red team rt77; rt81 inside the
            # outside-go bound, and torch on the draws)
            head["stray_calls"] = self.recorder.stray
        return head, sums

    def summarise(self, h: dict) -> tuple[dict, list]:
        """After a commit: what the last go's forwards showed (`_summary`), a candidate's
        only (the watch, its own launches), so apart from the commit both roles time alike."""
        summary, self.summary = (self.summary() if callable(self.summary) else {}), None
        return {"op": "summarised", **summary}, []

    def _inputs_after(self, index: int) -> list[torch.Tensor]:
        """Forward `index`'s tensor inputs as the forward left them (a timed run may no more
        modify its inputs than a checked one)."""
        from evaluator.runner import leaves

        # the tensors inside list arguments too (runner.leaves), as a checked forward's
        return leaves(self.batch[index]) if index < len(self.batch) else []

    def _profiled(self, h: dict, marks: tuple[Callable, Callable],
                  watch: Provenance | None = None) -> tuple[list[list[torch.Tensor]], dict]:
        """A profiled batch: to the forward it is a timed batch like any other (fresh draws,
        flushes); each forward is profiled in its own session (the flush outside it); the
        worker keeps their coverage, not their time. `watch` runs around each forward alone
        (inside the meter and the noise fill, which are nobody's work)."""
        ws = self._workspace()
        kernels = set(ws.candidate_kernels()) | self.recorder.compiled_names(ws.module_name()) \
            if self.role == "candidate" else set()

        from evaluator import cpu_work

        if self.device == "cuda":
            # PyTorch's share of the work, priced as on the CPU (the coverage bound of
            # stopwatch.profiled_coverage): its kernels' time says what a fused op took, not
            # how much of the problem it did
            aten = cpu_work.WorkCounter((), aten_only=True)

            def metered(*inputs):
                with aten, watch or nullcontext():  # the watch inside the meter, as on the CPU
                    return self.model(*inputs)
            held, cov = timing.profiled_forwards(metered, self.batch, self._flush_buffer(h), kernels,
                                                 self.recorder.launched_kernels, *marks,
                                                 spin=max(0, int(h.get("spin", 0))))
            work = aten.result(len(self.batch))
            if work.get("error") is None:
                cov["aten_unfused_s"] = work["unfused_time_s"]
                cov.update({k: work[k] for k in cpu_work.FLOOR_FIELDS})  # the bound's floors
                cov = self._construction_charged(cov, 1)
            return held, cov

        def model(*inputs):
            self._autotuned_as_checked()
            with watch or nullcontext():
                return self.model(*inputs)
        from evaluator.runner import flatten_outputs

        held: list = []

        def forwards(_inputs: list) -> None:
            for inputs in self.batch:
                marks[0]()
                try:
                    with torch.no_grad():
                        held.append(flatten_outputs(model(*inputs)))
                finally:
                    marks[1]()

        with self._like_checked():  # outside the meter's mode: the noise fill is nobody's work
            cov = cpu_work.measure(forwards, [], kernels)
        return held, self._construction_charged(cov, len(self.batch))

    def _construction_charged(self, cov: dict, forwards: int) -> dict:
        """`cov` with the compute the candidate's construction did charged to each of its
        `forwards` (evaluator.construction_watch.charged)."""
        if self.role != "candidate":
            return cov
        seconds, unfused = self._workspace().work_charge()
        return construction_watch.charged(cov, (seconds * forwards, unfused * forwards))

    def _autotuned_as_checked(self, checked: bool = False, probe: bool = False) -> None:
        """Under the CPU interpreter every candidate forward picks its autotuned kernels'
        configs: a trial and a probe (a knock-out, a forward of the knock-out round) the next
        config, any other (timed, profiled) the configs the last trial ran
        (evaluator.autotune_cpu)."""
        if self.device == "cpu" and self.role == "candidate":
            autotune_cpu.next_forward(checked=checked, probe=probe)

    def _like_checked(self):
        """Under the CPU interpreter timed forwards (both roles alike) see fresh memory as the
        checked ones do, holding noise, so torch.empty does not tell them apart; its cost is
        a CPU timing's, which says nothing about the GPU anyway. On the GPU the dispatch
        overhead would distort the timing: there timed runs are held to the checked ones'
        Triton programs instead (judge_timed.judge_timed_path)."""
        return random_uninitialised() if self.device == "cpu" else nullcontext()

    def _flush_buffer(self, h: dict):
        size = int(h.get("flush_bytes", 0))
        if self.device != "cuda" or size <= 0:
            return None
        if self.flush is None or self.flush.numel() * 4 != size // 4 * 4:
            self.flush = torch.empty(size // 4, dtype=torch.int32, device="cuda")
        return self.flush

    def reveal(self, h: dict) -> tuple[dict, list]:
        """Forward `index`'s outputs (and, asked, its inputs as it left them): each whole, or
        the chunks the worker chose (`chunks`, one entry per tensor, None = whole)."""
        index = int(h["index"])
        outs = self.last_outputs[index]
        tensors = [*outs, *(self._inputs_after(index) if h.get("inputs") else [])]
        chunks = h.get("chunks") or [None] * len(tensors)
        parts = [timing.reveal_part(t, c) for t, c in zip(tensors, chunks, strict=True)]
        return {"op": "result", "outputs": describe_outputs(outs),
                "shapes": [list(t.shape) for t in tensors]}, parts

