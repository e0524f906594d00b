"""Command handlers of a sandboxed child (the far end of evaluator.protocol).

`ChildState.handle(header)` runs one command and returns (reply header, tensors).
Failures are replies, never crashes: the candidate's exceptions become
{"op": "error", "kind": compile_error|runtime_error|format_error}, the problem's
become kind "problem_error", anything else "internal". The child never compares
outputs: it sends them (with shapes, dtypes, input digests and launch records) to
the parent, which decides.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import torch

from common.config.evaluator import TimingConfig
from evaluator import timing
from evaluator.integrity import Integrity
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
from evaluator.warmup import warm_up

MAX_LAUNCH_RECORDS = 256


def _fn(model: Any) -> Callable[[list], Any]:
    def forward(inputs: list) -> Any:
        with torch.no_grad():
            return model(*inputs)
    return forward


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


def check_outputs(outs: list[torch.Tensor], expected: list[dict], max_bytes: int) -> tuple[list, str | None, bool]:
    """(descriptors, shape problem or None, whether to send the data)."""
    info = [{"dtype": DTYPE_NAMES.get(t.dtype, str(t.dtype)), "shape": list(t.shape)} for t in outs]
    if len(outs) != len(expected):
        return info, f"forward returned {len(outs)} output(s); the reference returns {len(expected)}", False
    for i, (got, want) in enumerate(zip(info, expected)):
        if got["shape"] != want["shape"]:
            return info, f"output {i} has shape {got['shape']}; the reference's is {want['shape']}", False
    nbytes = sum(t.numel() * t.element_size() for t in outs)
    if nbytes > max_bytes:
        return info, f"outputs are {nbytes} bytes; the limit is {max_bytes}", False
    same_dtypes = all(g["dtype"] == w["dtype"] for g, w in zip(info, expected))
    return info, None, same_dtypes


def _poison(device: str, nbytes: int) -> None:
    """Fill and free a block so uninitialised outputs read NaN, not a stale result."""
    if device == "cuda" and nbytes > 0:
        block = torch.full((nbytes // 4 + 1,), float("nan"), device="cuda")
        del block


def _rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class ChildState:
    def __init__(self, role: str, device: str, tmp: Path):
        self.role, self.device, self.tmp = role, device, tmp
        if device == "cuda":
            torch.cuda.set_device(0)
            torch.cuda.init()
            # float32 means float32: no TF32 in the reference's matmuls and convolutions
            # (cuDNN allows it by default), as no precision below the problem's dtype is
            # allowed in a candidate; otherwise a faithful fp32 kernel fails where an
            # input transform makes TF32's rounding visible.
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.backends.cudnn.allow_tf32 = False
        self.recorder = LaunchRecorder()
        self.recorder.install()
        warm_up(device)
        self.integrity = Integrity(self.recorder)
        self.ws: Workspace | None = None
        self.prepared_for: tuple[str, dict] | None = None  # reference child: what `prepare` loaded
        self.count = 0

    def device_name(self) -> str:
        return torch.cuda.get_device_name(0) if self.device == "cuda" else "cpu"

    def handle(self, head: dict) -> tuple[dict, list]:
        handlers = {"prepare": self.prepare, "reference": self.reference, "load": self.load, "trials": self.trials,
                    "benchmark": self.benchmark, "reset": self.reset}
        handler = handlers.get(head["op"])
        try:
            if handler is None:
                raise ValueError(f"unknown command {head['op']!r}")
            return handler(head)
        except CandidateError as exc:
            return {"op": "error", "kind": exc.kind, "message": exc.message, "traceback": exc.tb}, []
        except ProblemError as exc:
            return {"op": "error", "kind": "problem_error", "message": str(exc)[-2000:],
                    "traceback": str(exc)}, []
        except Exception as exc:  # a harness bug: reported, the parent retires this child
            message, tb = describe(exc)
            return {"op": "error", "kind": "internal", "message": message, "traceback": tb}, []

    def _workspace(self) -> Workspace:
        if self.ws is None:
            raise ValueError("no problem loaded")
        return self.ws

    # ------------------------------------------------------------------ reference child
    def prepare(self, h: dict) -> tuple[dict, list]:
        """Make input sets on the CPU ahead of the device-locked command that uses them.
        The reference child loads its problem here (its workspace lives until the next
        `reference`); a candidate child prepares for the problem `load` gave it."""
        if self.role == "reference":
            if self.ws is not None:
                self.ws.close()
            self.count += 1
            self.ws = Workspace(self.tmp, self.count, self.device, self.recorder)
            self.ws.load_problem(h["problem"], h["sizes"])
            self.prepared_for = (h["problem"], h["sizes"])
        ws = self._workspace()
        for i, t in enumerate(h["inputs"]):
            ws.prepare(t["seed"], t["transform"], check_determinism=self.role == "reference" and i == 0)
        return {"op": "result", "prepared": len(h["inputs"])}, []

    def reference(self, h: dict) -> tuple[dict, list]:
        if self.role != "reference":
            raise ValueError("only the trusted reference child computes reference outputs")
        if self.ws is None or self.prepared_for != (h["problem"], h["sizes"]):  # load and generate here
            self.prepare({"problem": h["problem"], "sizes": h["sizes"], "inputs": h["trials"][:1]})
        ws, self.ws = self.ws, None
        try:
            model = ws.reference_model(h["init_seed"])
            trials, tensors = [], []
            for t in h["trials"]:
                inputs, applied, pre = ws.make_inputs(t["seed"], t["transform"])
                copies = pristine(inputs)
                t0 = time.perf_counter()
                outs, _ = _as("problem", partial(ws.forward, model, inputs))
                seconds = time.perf_counter() - t0
                info = [{"dtype": DTYPE_NAMES.get(o.dtype, str(o.dtype)), "shape": list(o.shape)} for o in outs]
                if any(o.dtype not in DTYPE_NAMES for o in outs):
                    raise ProblemError(f"the reference returns an unsupported dtype: {info}")
                trials.append({"pre": pre, "modified": not unchanged(inputs, copies), "outputs": info,
                               "seconds": seconds, "transform": applied})
                tensors.extend(outs)
        except CandidateError as exc:  # raised by the problem's own forward
            raise ProblemError(exc.tb or exc.message) from None
        finally:
            ws.close()
        return {"op": "result", "trials": trials}, tensors

    # ------------------------------------------------------------------ candidate child
    def load(self, h: dict) -> tuple[dict, list]:
        if self.role != "candidate":
            raise ValueError("the reference child never loads a candidate")
        if self.ws is not None:
            self.recorder.forget(self.ws.module_name())
            self.ws.close()
        self.count += 1
        self.ws = Workspace(self.tmp, self.count, self.device, self.recorder)
        self.ws.load_problem(h["problem"], h["sizes"])
        self.ws.load_candidate(h["candidate"], h["init_seed"])
        return {"op": "result", "kernels": self.ws.candidate_kernels(), "module": self.ws.module_name(),
                "tampered": self.integrity.check()}, []

    def trials(self, h: dict) -> tuple[dict, list]:
        ws = self._workspace()
        results, tensors = [], []
        for t, expected in zip(h["trials"], h["expected"]):
            inputs, _, pre = ws.make_inputs(t["seed"], t["transform"])
            copies = pristine(inputs)
            _poison(self.device, 2 * sum(_nbytes(e) for e in expected))
            t0 = time.perf_counter()
            outs, launches = _as("candidate", partial(ws.forward, ws.model_new, inputs))
            seconds = time.perf_counter() - t0
            info, problem, send = check_outputs(outs, expected, h["max_output_bytes"])
            modified = not _as("candidate", partial(unchanged, inputs, copies))
            results.append({"pre": pre, "modified": modified, "outputs": info,
                            "problem": problem, "sent": send, "seconds": seconds,
                            "n_launches": len(launches),
                            "launches": [list(x) for x in launches[:MAX_LAUNCH_RECORDS]]})
            if send:
                tensors.extend(outs)
            if problem is not None:
                break
        return {"op": "result", "trials": results, "kernels": ws.candidate_kernels(),
                "module": ws.module_name(), "tampered": self.integrity.check()}, tensors

    def benchmark(self, h: dict) -> tuple[dict, list]:
        ws = self._workspace()
        tampered = self.integrity.check()
        if tampered:
            return {"op": "result", "tampered": tampered}, []
        cfg = TimingConfig(**h["timing"])
        ref_model = ws.reference_model(h["init_seed"])
        sets_ref = [ws.make_inputs(s, "base")[0] for s in h["timing_seeds"]]
        sets_cand = [[x.clone() if isinstance(x, torch.Tensor) else x for x in s] for s in sets_ref]
        fn_ref, fn_cand = _fn(ref_model), _fn(ws.model_new)
        timer = timing.time_gpu if self.device == "cuda" else timing.time_cpu
        out: dict[str, Any] = {"op": "result"}
        out["ref"] = _as("problem", lambda: timer(fn_ref, sets_ref, cfg))
        out["cand"] = _as("candidate", lambda: timer(fn_cand, sets_cand, cfg))
        if self.device == "cuda":
            runs = cfg.side_stream_runs
            out["side_stream"] = {
                "ref": _as("problem", lambda: timing.side_stream_gap(fn_ref, sets_ref[0], runs)),
                "cand": _as("candidate", lambda: timing.side_stream_gap(fn_cand, sets_cand[0], runs))}
            if cfg.compare_torch_compile:
                compiled = _fn(torch.compile(ref_model))
                out["compile"] = _as("problem", lambda: timer(compiled, sets_ref, cfg))
            if h.get("profile"):
                kernels = set(ws.candidate_kernels()) | self.recorder.compiled_names(ws.module_name())
                out["coverage"] = _as("candidate", lambda: timing.coverage(
                    fn_cand, sets_cand[0], kernels, h["profile_forwards"]))
        tensors: list = []
        if h.get("recheck"):
            out["recheck"], tensors = self._recheck(ws, sets_cand[0], h["recheck"], h["max_output_bytes"])
        out["tampered"] = self.integrity.check()
        return out, tensors

    def _recheck(self, ws: Workspace, buffers: list, rc: dict, max_bytes: int) -> tuple[dict, list]:
        """Refill a timed input set in place with fresh data and run the candidate once more."""
        fresh = ws.make_inputs(rc["seed"], rc["transform"])[0]
        for j, (b, f) in enumerate(zip(buffers, fresh)):
            if isinstance(b, torch.Tensor) and isinstance(f, torch.Tensor) and b.shape == f.shape \
                    and b.dtype == f.dtype:
                b.copy_(f)
            else:
                buffers[j] = f
        outs, launches = _as("candidate", lambda: ws.forward(ws.model_new, buffers))
        info, problem, send = check_outputs(outs, rc["expected"], max_bytes)
        return {"outputs": info, "problem": problem, "sent": send, "n_launches": len(launches)}, \
            (outs if send else [])

    def reset(self, h: dict) -> tuple[dict, list]:
        if self.ws is not None:
            self.recorder.forget(self.ws.module_name())
            self.ws.close()
            self.ws = None
        reasons = self.integrity.check()
        if self.device == "cuda":
            try:
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
            except Exception as exc:  # a sticky CUDA error: this context is unusable
                reasons.append(f"CUDA context unusable: {exc}"[:500])
        return {"op": "result", "healthy": not reasons, "reasons": reasons, "rss_bytes": _rss_bytes()}, []


def _nbytes(desc: dict) -> int:
    from evaluator.protocol import DTYPES

    n = 1
    for d in desc["shape"]:
        n *= d
    return n * torch.empty((), dtype=DTYPES.get(desc["dtype"], torch.float32)).element_size()
