"""Command handlers of a sandboxed child process (the far end of evaluator.protocol).

A child is one process forked by a sandbox's zygote (evaluator.zygote): a candidate
child lives for exactly one candidate; the reference child runs only problem code and
is reused. `ChildState.handle(header)` runs one command and returns (reply, tensors).

Nothing a child sends is believed on its word (docs/architecture.md, "Threat model"):
it sends DATA — output tensors, checksums, input digests made before the candidate was
imported — and the worker compares, times and decides. The commands:

  prepare  {problem, sizes, sets: [{id, seed, transform}]}: import the problem and make
           the input sets on the CPU (digests returned). In a candidate child this runs
           before the candidate module exists, so the candidate cannot shape its inputs.
  load     {candidate, init_seed}: import the candidate, build ModelNew (candidate role)
  model    {init_seed}: build the reference Model (reference role)
  run      {ids, knockout_ids, torch_knockout_ids, return_inputs, max_output_bytes}: one
           forward per input set, in the order given; outputs (and, when asked, the inputs
           after the forward) come back as tensors.
           In a candidate child fresh memory (torch.empty & co.) holds random values in
           every one of these forwards. With knockout, every Triton launch is also skipped:
           if the output is still right, the kernels did no work it depends on.
           With torch_knockout (strict policy), every PyTorch compute operator returns
           noise while the Triton kernels run: the output must still be right.
  arm      {ids, seeds}: the next timed batch: one fresh draw per (set, seed) from the
           problem's get_inputs (untimed; on the device where possible), kept side by side
  go       {count, null, profile}: THE TIMED STEP. The worker's clock runs from writing this
           command to reading its reply: for each armed draw in turn, flush L2 (GPU) and
           forward, back to back; one device-wide synchronize. The outputs are final when
           the reply leaves: the forward has returned plain tensors, the device is idle,
           and no candidate code runs in this process until the next command. CUDA events
           around each forward are reported only as a cross-check. `null` skips the
           forwards (`count` flushes and the sync): the reference child measures the
           protocol's own cost with it. `profile` (a few batches the worker picks at
           random, the same in both children) runs each forward under the profiler; the
           candidate returns their coverage; the worker does not use that batch's time.
           Every candidate forward reports how many launches of its own kernels it made.
  commit   {}: a checksum of each forward's outputs of the last `go`, and the CUDA-event
           time of each (untimed). The checksums commit the child to the outputs the
           worker may then ask to see (`reveal`); the worker decides which only after it
           has them.
  reveal   {index, inputs}: the outputs of forward `index` of the last `go` (and, asked,
           its tensor inputs as the forward left them), under the committed checksums
  alt      {index}: the reference's outputs for draw `index` of the last batch with
           PyTorch's TF32 mode on (GPU; empty where TF32 changes nothing), the precision
           contract's second reference
  profile  {id, forwards, seeds}: coverage of the candidate's kernels (GPU: torch.profiler;
           CPU: the interpreter work meter, evaluator.cpu_work), each forward on a fresh
           draw of set `id`; only when nothing is timed (else see `go`)
  status   {}: integrity report of the process (a tamper signal, not a guarantee)
Failures are replies: {"op": "error", "kind": compile_error|runtime_error|format_error|
problem_error|internal, "message", "traceback"}. The worker decides what an error means
by the phase it arrived in, not by its kind alone.
"""
from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import timing
from evaluator.integrity import Integrity
from evaluator.interpreter_guard import handed_tensors
from evaluator.launch_hook import LaunchRecorder
from evaluator.protocol import DTYPE_NAMES
from evaluator.runner import (
    CandidateError,
    ProblemError,
    Workspace,
    describe,
    error_kind,
    pristine,
    unchanged,
)

MAX_LAUNCH_RECORDS = 256


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


def _sendable(outs: list[torch.Tensor], max_bytes: int) -> str | None:
    """Why these outputs cannot be sent back (None: they can)."""
    if any(t.dtype not in DTYPE_NAMES for t in outs):
        return f"forward returned a tensor of an unsupported dtype ({describe_outputs(outs)})"
    nbytes = sum(t.numel() * t.element_size() for t in outs)
    if nbytes > max_bytes:
        return f"outputs are {nbytes} bytes; the limit is {max_bytes}"
    return None


def _poison(device: str, nbytes: int) -> None:
    """Fill and free a block so uninitialised outputs read NaN, not a stale result."""
    if device == "cuda" and nbytes > 0:
        block = torch.full((nbytes // 4 + 1,), float("nan"), device="cuda")
        del block


# aten operators that only allocate, fill, view, copy or read metadata: they keep working in
# the torch knock-out run. Every other operator's outputs are replaced by noise there.
_GLUE_OPS = frozenset({
    "empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided",
    "zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like",
    "new_full", "fill", "fill_", "zero_", "scalar_tensor", "arange", "lift_fresh", "lift_fresh_copy",
    "detach", "detach_", "alias", "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided",
    "as_strided_", "permute", "transpose", "transpose_", "t", "t_", "expand", "expand_as",
    "squeeze", "squeeze_", "unsqueeze", "unsqueeze_", "slice", "select", "narrow", "split",
    "split_with_sizes", "chunk", "unbind", "unfold", "flatten", "unflatten", "view_as", "movedim",
    "diagonal", "view_as_real", "view_as_complex", "real", "imag", "contiguous", "clone", "copy",
    "copy_", "_to_copy", "to", "_copy_from", "_copy_from_and_resize", "cat", "stack",
    "constant_pad_nd", "set_", "resize_", "resize_as_", "sym_size",
    "sym_stride", "sym_numel", "sym_storage_offset", "is_same_size", "split_copy", "unbind_copy",
    "view_copy", "permute_copy", "transpose_copy", "expand_copy", "slice_copy", "select_copy",
})


_RANDOM_INTS = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _noise(t: torch.Tensor) -> None:
    """Fill `t` with finite values nobody could have computed (normal, sd 1e3; random ints
    and bools). Finite, not NaN, on purpose: `0 * scratch.sum()` or `where(scratch > -inf,
    ...)` must not turn an unused buffer into a dependency."""
    if not t.numel():
        return
    with torch.no_grad():
        if t.is_complex():
            torch.view_as_real(t).normal_(0.0, 1e3)
        elif t.dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
            t.normal_(0.0, 1e3)
        elif t.dtype == torch.bool:
            t.random_(0, 2)
        elif not t.is_floating_point() and t.dtype in _RANDOM_INTS:
            t.random_(0, 1 << 7)
        else:  # float8, unsigned, quantized, ...: noise through a same-sized float32 draw
            t.copy_(torch.empty(t.shape, dtype=torch.float32, device=t.device).normal_(0.0, 1e2))


def _noise_scalar(value: bool | int | float) -> bool | int | float:
    """A host scalar nobody could have computed, of `value`'s type (the torch knock-out's
    `.item()`: Python that computes on values read one by one is PyTorch's work too)."""
    rng = random.SystemRandom()
    if isinstance(value, bool):
        return rng.random() < 0.5
    if isinstance(value, int):
        return rng.randrange(1 << 7)
    return rng.gauss(0.0, 1e3)


class _NoisyOutputs(TorchDispatchMode):
    """While active, the outputs of the aten operators `pick` selects come back holding
    noise (`_noise`). The two knock-out runs:
      _random_uninitialised()  memory from torch.empty & co.: with every Triton launch
                               skipped, a buffer no kernel wrote holds values nobody
                               could have produced, so an output that is still right did
                               not need the skipped kernels;
      _torch_compute_noised()  every operator but allocation, views and copies (_GLUE_OPS),
                               the strict policy's: Triton kernels run as usual, so a
                               forward whose output stays right computed it in its kernels."""

    def __init__(self, pick: Callable[[str], bool]) -> None:
        super().__init__()
        self.pick = pick

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if self.pick(func.overloadpacket.__name__):
            if isinstance(out, (bool, int, float)):  # .item(), float(t): a value read to the host
                return _noise_scalar(out)
            for t in (out if isinstance(out, (tuple, list)) else (out,)):
                if isinstance(t, torch.Tensor):
                    _noise(t)
        return out


_FRESH_OPS = frozenset({"empty", "empty_strided", "empty_like", "empty_permuted", "new_empty",
                        "new_empty_strided"})


# Glue ops that make new data, not a function of any tensor: their outputs are nobody's work.
_MAKE_OPS = frozenset({"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty",
                       "new_empty_strided", "zeros", "zeros_like", "new_zeros", "ones", "ones_like",
                       "new_ones", "full", "full_like", "new_full", "fill", "fill_", "zero_",
                       "scalar_tensor", "arange", "lift_fresh", "lift_fresh_copy"})


class _Provenance(TorchDispatchMode):
    """Strict policy, every checked forward: which memory holds what a PyTorch compute
    operator produced. Storages written by a compute op (every aten op but _GLUE_OPS) are
    marked; glue (views, copies, cat) passes a mark on from its sources; new memory
    (empty, zeros, full, arange) and memory a Triton launch was handed come out unmarked.
    A launch handed marked memory, or a forward returning it, let PyTorch compute part of
    the result. Unlike the torch knock-out this changes no value, so a forward cannot tell
    a run that is watched from one that is not (the noise of fresh memory is in every
    checked forward). Under the paper policy PyTorch may compute, but an output PyTorch
    computed whose knock-out run only raised is a decoy (pipeline)."""

    def __init__(self, recorder: LaunchRecorder) -> None:
        super().__init__()
        self.recorder = recorder
        self.marked: dict[int, str] = {}  # storage address -> the compute op that wrote it
        self.handed: str | None = None  # first launch handed PyTorch-computed memory
        self.returned_computed: str | None = None  # the output PyTorch computed

    def __enter__(self):
        self.recorder.observer = self.launched
        return super().__enter__()

    def __exit__(self, *exc):
        self.recorder.observer = None
        return super().__exit__(*exc)

    @staticmethod
    def _key(t: torch.Tensor) -> int:
        try:
            return t.untyped_storage().data_ptr()
        except (RuntimeError, NotImplementedError):  # no storage (sparse, nested): unmarked
            return 0

    def _source(self, tensors: list) -> str | None:
        return next((self.marked[k] for k in map(self._key, tensors) if k and k in self.marked), None)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = func.overloadpacket.__name__
        ins = [t for a in (*args, *kwargs.values()) for t in (a if isinstance(a, (list, tuple)) else (a,))
               if isinstance(t, torch.Tensor)]
        if name == "_local_scalar_dense":  # a value read to the host: Python may compute on it
            source = self._source(ins)
            if source is not None and self.handed is None:
                self.handed = f"forward read values PyTorch computed ({source}) to the host"
            return out
        if name in _MAKE_OPS:
            mark = None
        elif name in ("copy_", "_copy_from", "_copy_from_and_resize"):
            mark = self._source(ins[1:2])
        elif name in _GLUE_OPS:
            mark = self._source(ins)
        else:
            mark = f"aten::{name}"
        for t in (out if isinstance(out, (tuple, list)) else (out,)):
            if isinstance(t, torch.Tensor) and (key := self._key(t)):
                if mark is not None:
                    self.marked[key] = mark
                elif _whole_storage(t):  # a write into part of a buffer leaves the rest's mark
                    self.marked.pop(key, None)
        return out

    def launched(self, kernel: object, args: tuple, kwargs: dict) -> None:
        tensors = [t for v in (*args, *kwargs.values()) for t in handed_tensors(v)]
        source = self._source(tensors)
        if source is not None and self.handed is None:
            fn = getattr(kernel, "fn", kernel)
            self.handed = (f"your Triton kernel {getattr(fn, '__name__', '?')} was handed memory "
                           f"PyTorch computed ({source})")
        for t in tensors:
            self.marked.pop(self._key(t), None)

    def returned(self, outs: list) -> None:
        source = self._source([t for t in outs if isinstance(t, torch.Tensor)])
        if source is not None:
            self.returned_computed = f"forward returned memory PyTorch computed ({source})"

    def report(self) -> dict:
        return {"handed": self.handed, "returned": self.returned_computed}


def _whole_storage(t: torch.Tensor) -> bool:
    """Whether `t` covers every byte of its storage (marks are kept per storage)."""
    try:
        return t.data_ptr() == t.untyped_storage().data_ptr() and \
            t.is_contiguous() and t.numel() * t.element_size() == t.untyped_storage().nbytes()
    except (RuntimeError, NotImplementedError):
        return False


def _random_uninitialised() -> _NoisyOutputs:
    return _NoisyOutputs(lambda name: name in _FRESH_OPS)


def _torch_compute_noised() -> _NoisyOutputs:
    return _NoisyOutputs(lambda name: name not in _GLUE_OPS)


class _TF32:
    """PyTorch's TF32 mode for matmul and cuDNN, restored afterwards."""

    def __enter__(self) -> None:
        self._was = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True

    def __exit__(self, *exc: object) -> None:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = self._was


def _interpreted_tensors_look_like_cuda() -> None:
    """Under Triton's interpreter the candidate's tensors live on the CPU, so the honest
    fallback `if not x.is_cuda: return <torch>` would skip every kernel: in a CPU candidate
    child `Tensor.is_cuda` answers True (the device itself cannot be faked; a test of
    `x.device.type` still takes the fallback, and that verdict says to use a GPU). Only
    Python reads this attribute; torch's C++ and the harness never look at it."""
    torch.Tensor.is_cuda = property(lambda self: True)  # type: ignore[assignment]


class ChildState:
    def __init__(self, role: str, device: str, tmp: Path, recorder: LaunchRecorder):
        self.role, self.device, self.tmp = role, device, tmp
        self.recorder = recorder
        if role == "candidate" and device == "cpu":
            _interpreted_tensors_look_like_cuda()
        self.integrity = Integrity(recorder)
        self.ws: Workspace | None = None
        self.problem_key: tuple[str, str] | None = None
        self.model: Any = None
        self.count = 0
        self.batch: list[list] = []  # the armed draws, one input list per forward of the next go
        self.events: list = []  # CUDA event pairs of the last go's forwards (read by commit)
        self.last_outputs: list[list[torch.Tensor]] = []  # per forward of the last go
        self.flush = None
        self.draws_checked: set[int] = set()

    def handle(self, head: dict) -> tuple[dict, list]:
        handlers = {"prepare": self.prepare, "load": self.load, "model": self.build_reference,
                    "run": self.run, "arm": self.arm, "go": self.go, "commit": self.commit, "reveal": self.reveal,
                    "profile": self.profile, "status": self.status, "alt": self.alt,
                    "release": self.release}
        handler = handlers.get(head.get("op"))
        try:
            if handler is None:
                raise ValueError(f"unknown command {head.get('op')!r}")
            return handler(head)
        except CandidateError as exc:
            return {"op": "error", "kind": exc.kind, "message": exc.message, "traceback": exc.tb}, []
        except ProblemError as exc:
            return {"op": "error", "kind": "problem_error", "message": str(exc)[-2000:],
                    "traceback": str(exc)}, []
        except Exception as exc:  # a harness bug (or a candidate that broke the harness): reported
            message, tb = describe(exc)
            return {"op": "error", "kind": "internal", "message": message, "traceback": tb}, []

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
        if h.get("reset_sets"):
            ws.drop_sets()
            self.batch, self.last_outputs = [], []
        sets = {}
        for i, s in enumerate(h["sets"]):
            applied, checksum = ws.prepare(int(s["id"]), s["seed"], s["transform"],
                                           check_determinism=self.role == "reference" and i == 0,
                                           lazy=bool(s.get("lazy")))
            sets[str(s["id"])] = {"transform": applied, "digest": checksum}
        return {"op": "result", "sets": sets}, []

    def load(self, h: dict) -> tuple[dict, list]:
        if self.role != "candidate":
            raise ValueError("the reference child never loads a candidate")
        ws = self._workspace()
        if ws.candidate is not None:
            raise ValueError("a candidate child loads one candidate")
        ws.load_candidate(h["candidate"], h["init_seed"])
        self.model = ws.model_new
        return {"op": "result", "kernels": ws.candidate_kernels(), "module": ws.module_name(),
                "tampered": self.integrity.check()}, []

    def build_reference(self, h: dict) -> tuple[dict, list]:
        if self.role != "reference":
            raise ValueError("only the reference child builds the reference Model")
        self.model = self._workspace().reference_model(h["init_seed"])
        return {"op": "result"}, []

    def _own_programs(self) -> dict[str, int]:
        """Programs per own kernel in the forward just recorded (candidate children)."""
        return self.recorder.own_programs(self._workspace().module_name()) if self.role == "candidate" else {}

    def _own_variants(self) -> list[str]:
        return self.recorder.own_variants(self._workspace().module_name()) if self.role == "candidate" else []

    def _forward(self, inputs: list) -> tuple[list[torch.Tensor], list]:
        who = "candidate" if self.role == "candidate" else "problem"
        if self.model is None:
            raise ValueError("no model built")
        return _as(who, partial(self._workspace().forward, self.model, inputs))

    # ------------------------------------------------------------------ correctness
    def run(self, h: dict) -> tuple[dict, list]:
        """One forward per input set, in the order given; the knock-out ones with every
        Triton launch skipped. A knock-out forward that raises is reported, not fatal."""
        ws = self._workspace()
        knockout = {int(i) for i in h.get("knockout_ids", ())}
        torch_knockout = {int(i) for i in h.get("torch_knockout_ids", ())}
        results, tensors = [], []
        for set_id in h["ids"]:
            inputs = ws.inputs(int(set_id))
            copies = pristine(inputs)
            provenance = None
            _poison(self.device, h.get("poison_bytes", 0))
            t0 = time.perf_counter()
            if int(set_id) in knockout or int(set_id) in torch_knockout:
                try:
                    if int(set_id) in knockout:
                        with self.recorder.suppressed(), _random_uninitialised():
                            outs, launches = self._forward(inputs)
                    else:
                        with _torch_compute_noised():
                            outs, launches = self._forward(inputs)
                except CandidateError as exc:
                    ws.release(int(set_id))
                    results.append({"id": set_id, "error": exc.message[:500], "outputs": [],
                                    "n_launches": 0, "launches": [], "modified": []})
                    continue
            elif self.role == "candidate":
                # fresh memory holds noise in every candidate forward, not only the knock-out:
                # what torch.empty returns must not tell the knock-out run apart
                watch = _Provenance(self.recorder) if h.get("provenance") else None
                with _random_uninitialised(), watch or nullcontext():
                    outs, launches = self._forward(inputs)
                if watch is not None:
                    watch.returned(outs)
                    provenance = watch.report()
            else:
                outs, launches = self._forward(inputs)
            seconds = time.perf_counter() - t0
            problem = _sendable(outs, h["max_output_bytes"])
            if problem is None and h.get("check_repeat") and self.role == "reference" and not results:
                problem = self._repeat_problem(copies, outs)
            modified = [i for i, (x, c) in enumerate(zip(inputs, copies))
                        if isinstance(x, torch.Tensor) and not unchanged([x], [c])]
            back = [inputs[i] for i in modified] if h.get("return_inputs") and problem is None else []
            alt = self._tf32_outputs(copies, outs) if h.get("tf32") and problem is None else []
            results.append({"id": set_id, "outputs": describe_outputs(outs), "problem": problem,
                            "modified": modified, "returned_inputs": len(back), "alt_outputs": len(alt),
                            "seconds": seconds, "n_launches": len(launches),
                            "launches": [list(x) for x in launches[:MAX_LAUNCH_RECORDS]],
                            "own_programs": self._own_programs(), "own_variants": self._own_variants(),
                            "provenance": provenance})
            del inputs, copies
            ws.release(int(set_id))
            if problem is None:  # to the host now: the device holds one set's tensors at a time
                tensors.extend(t.cpu() for t in (*outs, *back, *alt))
            else:
                break
            del outs, back, alt
        # one command per set, so the integrity check (as the collection after it, evaluator.child)
        # runs after a sequence's last command: what it checks is unchanged by then or tampered
        reply = {"op": "result", "trials": results,
                 "tampered": self.integrity.check() if h.get("last", True) else []}
        if self.device == "cuda":  # what this process's allocator held at most since `prepare`
            reply["peak_device_bytes"] = torch.cuda.max_memory_reserved()
        return reply, tensors

    def _repeat_problem(self, copies: list, outs: list[torch.Tensor]) -> str | None:
        """Why the reference cannot be used if a second forward on the same inputs differs
        (randomness in forward, e.g. dropout in training mode): no kernel could match it."""
        again, _ = self._forward(pristine(copies))
        for a, b in zip(again, outs):
            if a.shape != b.shape or a.dtype != b.dtype:
                return "the reference's forward returns different outputs on the same inputs"
            same = torch.allclose(a, b, rtol=1e-3, atol=1e-3, equal_nan=True) if a.is_floating_point() \
                else torch.equal(a, b)
            if not same:
                return ("the reference's forward gives different results on the same inputs (randomness "
                        "in forward, such as dropout in training mode): no kernel can be checked against it")
        return None

    def _tf32_outputs(self, inputs: list, strict: list[torch.Tensor]) -> list[torch.Tensor]:
        """The reference's outputs with PyTorch's TF32 mode on (GPU reference child only);
        [] where TF32 does not apply or changes nothing. The worker accepts a float32 kernel
        whose error is of the size TF32 itself gives on this computation."""
        if self.role != "reference" or self.device != "cuda":
            return []
        with _TF32():
            alt, _ = self._forward(inputs)
        same = len(alt) == len(strict) and all(a.shape == b.shape and torch.equal(a, b)
                                               for a, b in zip(alt, strict))
        return [] if same else alt

    def alt(self, h: dict) -> tuple[dict, list]:
        """TF32 outputs for draw `index` of the last batch (after a revealed timed run)."""
        index = int(h["index"])
        outs = self._tf32_outputs(self.batch[index], self.last_outputs[index])
        return {"op": "result", "outputs": describe_outputs(outs)}, outs

    # ------------------------------------------------------------------ timing
    def arm(self, h: dict) -> tuple[dict, list]:
        ws = self._workspace()
        self.batch, self.last_outputs = [], []  # the previous batch's memory goes first
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

    def go(self, h: dict) -> tuple[dict, list]:
        extra: dict = {}
        count = int(h.get("count", 1))
        flush = self._flush_buffer(h)
        if h.get("null"):
            timing.flush_only(flush, count)
            return {"op": "done"}, []
        else:
            if len(self.batch) != count:
                raise ValueError(f"go of {count} forwards, but {len(self.batch)} draws are armed")
            who = "candidate" if self.role == "candidate" else "problem"
            launches: list[list[tuple[str, str]]] = []
            programs: list[dict[str, int]] = []

            variants: list[list[str]] = []

            def after() -> None:
                launches.append(self.recorder.stop())
                programs.append(self._own_programs())
                variants.append(self._own_variants())
            marks = (self.recorder.start, after)
            self.events = []
            if h.get("profile") and (self.role == "candidate" or self.device == "cuda"):
                # the reference profiles the same batches on the GPU: both processes then carry the
                # profiler's after-cost per CUDA call alike (only the candidate's coverage is kept)
                outs, cov = _as(who, partial(self._profiled, h, marks))
                if self.role == "candidate":
                    extra["coverage"] = cov
            else:
                with self._like_checked():
                    outs, self.events = _as(who, partial(timing.timed_forwards, self.model, self.batch,
                                                         self.device, flush, *marks))
            if self.role == "candidate":
                module = self._workspace().module_name()
                extra["own_launches"] = [sum(1 for m, _ in runs if m == module) for runs in launches]
                extra["own_programs"] = programs
                extra["own_variants"] = variants
            if _shared_across(outs):
                extra["aliased"] = True
            self.last_outputs = outs
        return {"op": "done", **extra}, []

    def commit(self, h: dict) -> tuple[dict, list]:
        """Untimed, after a go: checksums of its outputs, and its CUDA-event times (read here,
        out of the timed window: each read is a CUDA call)."""
        events = timing.event_seconds(self.events)
        self.events = []
        return {"op": "committed", "checksums": [timing.checksum(o) for o in self.last_outputs],
                "input_checksums": [timing.checksum(self._inputs_after(i)) for i in range(len(self.last_outputs))],
                "events_s": events}, []

    def _inputs_after(self, index: int) -> list[torch.Tensor]:
        """Forward `index`'s tensor inputs as the forward left them (a timed run may no more
        modify its inputs than a checked one)."""
        inputs = self.batch[index] if index < len(self.batch) else []
        return [x for x in inputs if isinstance(x, torch.Tensor)]

    def _profiled(self, h: dict, marks: tuple[Callable, Callable]) -> tuple[list[list[torch.Tensor]], dict]:
        """A profiled batch: to the forward it is a timed batch like any other (fresh draws,
        flushes); each forward is profiled in its own session (the flush outside it); the
        worker keeps their coverage, not their time."""
        ws = self._workspace()
        kernels = set(ws.candidate_kernels()) | self.recorder.compiled_names(ws.module_name()) \
            if self.role == "candidate" else set()
        if self.device == "cuda":
            return timing.profiled_forwards(self.model, self.batch, self._flush_buffer(h), kernels,
                                            self.recorder.launched_kernels, *marks)
        from evaluator import cpu_work
        from evaluator.runner import flatten_outputs

        held: list = []

        def forwards(_inputs: list) -> None:
            for inputs in self.batch:
                marks[0]()
                try:
                    held.append(flatten_outputs(self._forward_only(inputs)))
                finally:
                    marks[1]()

        with self._like_checked():  # outside the meter's mode: the noise fill is nobody's work
            cov = cpu_work.measure(forwards, [], kernels)
        return held, cov

    def _like_checked(self):
        """Under the CPU interpreter timed forwards (both roles alike) see fresh memory as the
        checked ones do, holding noise, so torch.empty does not tell them apart; its cost is
        a CPU timing's, which says nothing about the GPU anyway. On the GPU the dispatch
        overhead would distort the timing: there timed runs are held to the checked ones'
        Triton programs instead (judge.judge_timed_path)."""
        return _random_uninitialised() if self.device == "cpu" else nullcontext()

    def _flush_buffer(self, h: dict):
        size = int(h.get("flush_bytes", 0))
        if self.device != "cuda" or size <= 0:
            return None
        if self.flush is None or self.flush.numel() * 4 != size // 4 * 4:
            self.flush = torch.empty(size // 4, dtype=torch.int32, device="cuda")
        return self.flush

    def reveal(self, h: dict) -> tuple[dict, list]:
        index = int(h["index"])
        outs = self.last_outputs[index]
        more = self._inputs_after(index) if h.get("inputs") else []
        return {"op": "result", "outputs": describe_outputs(outs)}, [*outs, *more]

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
        return {"op": "result", "coverage": cov, "tampered": self.integrity.check()}, []

    def _forward_only(self, inputs: list) -> Any:
        with torch.no_grad():
            return self.model(*inputs)

    def release(self, h: dict) -> tuple[dict, list]:
        """Hand the device memory this (long-lived reference) process holds back to the driver:
        the last batch, the input sets' tensors, the allocator's cache."""
        self.batch, self.last_outputs, self.events = [], [], []
        if self.ws is not None:
            for set_id in list(self.ws._prepared):
                self.ws.release(set_id)
        gc.collect()
        if self.device == "cuda":
            torch.cuda.empty_cache()
        return {"op": "result"}, []

    def status(self, h: dict) -> tuple[dict, list]:
        return {"op": "result", "tampered": self.integrity.check()}, []
