"""Child-side integrity check: is this process still the one the harness set up?

A candidate's module-level code and forward run inside the child. Static checks
forbid patching anything, but a reused child must prove it too. At start-up the
child records the identity of every callable in the namespaces the harness and
the comparison-relevant libraries use (builtins, torch, torch.Tensor, nn.Module,
torch.nn.functional, torch.cuda, time, math, hashlib, triton, triton.language, the
launch path, the interpreter's rewriter and executor, and the harness's own modules and
the methods of their classes), the Python thread count, the
numeric settings (TF32, matmul precision, default dtype) and the launch hook. `check()` compares against that: a replaced or deleted entry, an extra
thread or a removed hook is a tampered process, which the pool retires. New entries
are allowed (libraries import lazily).
"""
from __future__ import annotations

import builtins
import hashlib
import math
import sys
import threading
import time
import types
from typing import Any

_HARNESS_MODULES = ("evaluator.child", "evaluator.runner", "evaluator.timing", "evaluator.protocol",
                    "evaluator.launch_hook", "evaluator.integrity", "evaluator.commands",
                    "evaluator.forward_watch", "evaluator.cpu_work", "evaluator.launch_bytes", "evaluator.aten_plans",
                    "evaluator.interpreter_guard", "evaluator.timed_steps", "evaluator.device_compile",
                    "evaluator.interpreter_libdevice", "evaluator.aten_facts", "evaluator.launch_args",
                    "evaluator.interpreter_races", "evaluator.interpreter_loops", "evaluator.interpreter_scope",
                    "evaluator.interpreter_schedule", "evaluator.interpreter_casts", "evaluator.interpreter_dot8",
                    "evaluator.interpreter_minmax", "evaluator.launch_storage",
                    "evaluator.warmed_kernel")


def _namespaces() -> dict[str, Any]:
    import torch
    import torch.nn.functional as F
    import triton
    import triton.language as tl
    from triton.runtime import jit

    spaces: dict[str, Any] = {
        "builtins": builtins, "torch": torch, "torch.Tensor": torch.Tensor,
        "torch.nn.Module": torch.nn.Module, "torch.nn.functional": F, "torch.cuda": torch.cuda,
        "time": time, "math": math, "hashlib": hashlib, "triton": triton, "triton.language": tl,
        "JITFunction": jit.JITFunction, "KernelInterface": jit.KernelInterface,
    }
    try:
        from triton.runtime.interpreter import InterpretedFunction
        spaces["InterpretedFunction"] = InterpretedFunction
    except ImportError:  # no interpreter in this Triton build
        pass
    try:
        from triton.runtime import interpreter
        spaces["FunctionRewriter"] = interpreter.FunctionRewriter
        spaces["GridExecutor"] = interpreter.GridExecutor
    except ImportError:  # no interpreter in this Triton build
        pass
    for name in _HARNESS_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        spaces[name] = module
        # and the methods of the classes it defines: a red team with code execution patched
        # ChildState.arm/go (now evaluator.timed_steps.TimedSteps) and forged a speedup
        for key, value in list(vars(module).items()):
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                spaces[f"{name}.{key}"] = value
    return spaces


def fingerprint() -> dict[str, Any]:
    """name -> every callable, class or module in the watched namespaces, the object itself:
    the baseline holds it, so its address cannot be freed and reused. An id() alone was
    forged (red team, session 14: delete ChildState.go, allocate functions until one lands
    at the freed address, set it)."""
    out = {}
    for space_name, space in _namespaces().items():
        for key, value in _effective(space).items():
            if callable(value) or isinstance(value, (type, types.ModuleType)):
                out[f"{space_name}.{key}"] = value
    return out


def _effective(space: Any) -> dict[str, Any]:
    """A module's names; a class's as its instances find them, inherited ones too (ChildState
    takes its timed-step methods from evaluator.timed_steps.TimedSteps: a method patched onto
    ChildState itself hides the inherited one)."""
    if not isinstance(space, type):
        return dict(vars(space))
    names: dict[str, Any] = {}
    for klass in reversed(space.__mro__[:-1]):  # object's own are not the harness's
        names.update(vars(klass))
    return names


def shadowed(obj: Any) -> list[str]:
    """Instance attributes of `obj` that hide a callable of its class (`state.go = ...`
    runs instead of ChildState.go wherever the method is looked up on the instance)."""
    cls = type(obj)
    return [f"{cls.__name__}.{k}" for k in list(getattr(obj, "__dict__", {}))
            if callable(getattr(cls, k, None))]


def precision_settings() -> tuple:
    """Settings that change what a float32 computation means in this process."""
    import torch

    matmul = torch.backends.cuda.matmul
    return (matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.get_float32_matmul_precision(),
            matmul.allow_fp16_reduced_precision_reduction, matmul.allow_bf16_reduced_precision_reduction,
            torch.get_default_dtype())


def device_cap() -> float | None:
    """This process's device-memory cap (torch's per-process fraction, set from the job's
    reservation before the candidate is imported); None off the GPU."""
    import torch

    getter = getattr(torch.cuda.memory, "get_per_process_memory_fraction", None)
    if getter is None or not torch.cuda.is_initialized():
        return None
    return float(getter(0))


class Integrity:
    """Baseline taken at start-up; `check()` lists what changed since."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.baseline = fingerprint()
        self.watched: list[Any] = [recorder]  # harness objects whose methods must stay the class's
        self.threads = threading.active_count()
        self.precision = precision_settings()
        self.device_cap = device_cap()

    def settle_switches(self) -> None:
        """A candidate's import may set the TF32 switches and the float32 matmul precision
        (evaluator.static_settings: literal module-level lines; the reference runs in
        another process): they become the baseline from here on, so one changed after
        import is still reported. The default dtype stays the start-up one."""
        now = precision_settings()
        self.precision = (*now[:-1], self.precision[-1])

    def check(self) -> list[str]:
        problems = []
        now = fingerprint()
        changed = [k for k, v in self.baseline.items() if now.get(k) is not v]
        changed += [k for obj in self.watched for k in shadowed(obj)]
        if changed:
            problems.append("replaced or deleted: " + ", ".join(sorted(changed)[:10]))
        if threading.active_count() > self.threads:
            problems.append(f"{threading.active_count() - self.threads} extra Python thread(s) running")
        if precision_settings() != self.precision:
            problems.append(f"numeric settings changed: {precision_settings()} (were {self.precision})")
        if device_cap() != self.device_cap:  # lifted, its allocations would fail its neighbours
            problems.append(f"device memory cap changed: {device_cap()} (was {self.device_cap})")
        if not self.recorder.intact():
            problems.append("the Triton launch hook was removed")
        return problems
