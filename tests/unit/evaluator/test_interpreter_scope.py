"""What an interpreted kernel body may name (evaluator.interpreter_scope.device_scope): what
Triton's compiler lets a kernel name on the GPU, and nothing of the host's state besides."""
from __future__ import annotations

import builtins
import math
import types
import typing

import torch
import triton
import triton.language as tl

from evaluator.interpreter_scope import device_scope


@triton.jit
def _kernel(x_ptr):
    tl.store(x_ptr, 1.0)


class _Plain(typing.NamedTuple):
    block: int = 64


class _Shared(typing.NamedTuple):
    items: list = []  # one list for every instance: a channel out of a kernel body


_BOX: list = []


class _WithMethods(typing.NamedTuple):
    block: int = 64

    @staticmethod
    def take(v):  # runs with the module's whole globals: the channel again (red team C, session 18)
        _BOX.append(str(v))
        return 0


class _Derived(_Plain):
    def give(self):
        return _BOX


def test_a_kernel_body_names_only_what_the_gpu_compiler_accepts():
    module = {"tl": tl, "triton": triton, "torch": torch, "math": math, "other_kernel": _kernel,
              "BLOCK": tl.constexpr(128), "NAMES": tl.constexpr(("a", "b")), "Plain": _Plain,
              "f32": tl.float32, "cdiv": triton.cdiv,
              # refused on the GPU ("Cannot access global variable"), and here
              "BOX": [], "TABLE": {}, "N": 1024, "helper": lambda v: v, "Shared": _Shared,
              "WRAPPED": tl.constexpr([]), "WithMethods": _WithMethods, "Derived": _Derived,
              "TUPLE": tl.tuple([tl.constexpr(1)]),  # a triton.language instance: its .values is a list
              "__builtins__": builtins}
    scope = device_scope(module, {"interpreter_semantic": object()})
    kept = set(scope) - {"__builtins__", "interpreter_semantic"}
    # torch stays out: a kernel body would run it on the loaded values (the GPU compiler only
    # ever calls it on constants, at compile time)
    assert kept == {"tl", "triton", "math", "other_kernel", "BLOCK", "NAMES", "Plain", "f32", "cdiv"}
    # builtins: Triton's own namespace (len, range, min, ...), not str, repr, open or exec
    assert set(scope["__builtins__"]) <= {"len", "list", "range", "float", "int", "isinstance", "getattr",
                                          "hasattr", "print", "min", "max"}
    assert {"range", "min", "max", "len"} <= set(scope["__builtins__"])
    assert scope["interpreter_semantic"] is not None  # the rewrite's own names stay


def test_the_files_own_function_dressed_as_a_triton_builtin_stays_out():
    """Red team rt73: functools.wraps(tl.maximum) on a wrapper of the file's copies
    `__triton_builtin__` and `__module__` onto it, which both Triton's compiler and the scope's
    builtin rules read; the interpreter then ran the file's Python per program (a call counter
    that the GPU traces once). A plain function of the kernel's own module is never a builtin."""
    import functools

    module: dict = {"tl": tl, "__builtins__": builtins}

    def wrapper(a, *args, **kw):
        return tl.maximum(a, *args, **kw)

    dressed = types.FunctionType(wrapper.__code__, module, "dressed")
    functools.update_wrapper(dressed, tl.maximum)
    assert tl.core.is_builtin(dressed) and dressed.__module__.startswith("triton.language")
    module["floor_at"] = dressed
    assert "floor_at" not in device_scope(module, {})


def test_a_refused_global_fails_the_launch_with_the_gpu_compilers_reason():
    """End to end under the interpreter is tests/unit/evaluator/hacks/rt18a_*; here the
    wording a kernel author sees."""
    from evaluator import interpreter_scope

    interpreter_scope._REFUSED.add("BOX")
    err = NameError("name 'BOX' is not defined", name="BOX")
    wrapped = RuntimeError("interpreter")
    wrapped.__cause__ = err
    assert interpreter_scope.refused_global(wrapped) == "BOX"
    assert interpreter_scope.refused_global(RuntimeError("other")) is None


def test_a_launch_may_give_only_its_parameters_and_triton_options():
    """A keyword that is no parameter of the kernel went unchecked to a heuristics lambda,
    with a block a kernel body had loaded (red team D, session 18)."""
    import pytest

    from evaluator.launch_hook import KernelArgumentError, check_arguments

    class Kernel:
        arg_names = ["x_ptr", "n", "BLOCK"]
        fn = _kernel.fn if hasattr(_kernel, "fn") else _kernel

    check_arguments(Kernel(), (torch.zeros(4), 4), {"BLOCK": 64, "num_warps": 4, "num_stages": 2})
    with pytest.raises(KernelArgumentError, match="blk"):
        check_arguments(Kernel(), (torch.zeros(4), 4), {"BLOCK": 64, "blk": torch.zeros(4)})
    with pytest.raises(KernelArgumentError, match="ir_override"):
        check_arguments(Kernel(), (torch.zeros(4), 4), {"BLOCK": 64, "ir_override": "/tmp/x.ttir"})
    with pytest.raises(KernelArgumentError, match="num_warps"):
        check_arguments(Kernel(), (torch.zeros(4), 4), {"num_warps": [4]})


def test_a_heuristic_sets_only_the_kernels_own_parameters():
    """A heuristic named `warmup` turned its launch into a warm-up the executor never saw,
    after reading a kernel body's block on the host (red team G, session 18)."""
    import pytest

    from evaluator.launch_hook import KernelArgumentError, _wrap_entry

    class Heuristics:
        arg_names = ["x_ptr", "n", "BLOCK"]

        def __init__(self, values):
            self.values = values

        def run(self, *args, **kwargs):
            return "launched"

    run = _wrap_entry(Heuristics.run)
    assert run(Heuristics({"BLOCK": lambda a: 64}), torch.zeros(4), 4) == "launched"
    with pytest.raises(KernelArgumentError, match="warmup"):
        run(Heuristics({"warmup": lambda a: True}), torch.zeros(4), 4)
