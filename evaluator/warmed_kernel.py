"""A kernel's occupancy query, as Triton tutorial 02 writes it (session 53):

    kernel = softmax_kernel.warmup(y, x, ..., BLOCK_SIZE=BLOCK_SIZE, num_stages=..., num_warps=..., grid=(1, ))
    kernel._init_handles()
    n_regs = kernel.n_regs
    size_smem = kernel.metadata.shared
    ...
    kernel[(num_programs, 1, 1)](y, x, ..., BLOCK_SIZE, num_stages)

Triton's `warmup` returns a CompiledKernel, whose `.run`, `.function`, `.asm` and own launcher
reach the driver past the launch hooks (evaluator.launch_hook): a launch through it is no launch
of the JITFunction the evaluator watches. The harness replaces `KernelInterface.warmup` (the
warmup of JITFunction, InterpretedFunction and Heuristics; Autotuner's calls its kernel's), before
any candidate code is imported, with one that compiles as Triton's does (through the hooked
`run(..., warmup=True)`: every argument check applies) and returns a `WarmedKernel`, a
harness-owned view holding plain values only:
  - `n_regs`, `n_spills`: ints; `metadata`: a tuple of ints (`shared`, `num_warps`, `num_stages`);
  - `_init_handles()`: nothing (the view is built loaded);
  - `view[grid](*args)`: the launch, made as `kernel[grid](...)` of the JITFunction itself with the
    warmup's launch options, so the hooks, checks, knock-outs and coverage see it as any launch.
    Like the compiled kernel's launcher it takes every parameter positionally; its tl.constexpr
    values must be the warmed ones (the compiled kernel has them built in: a launch giving others
    would run the warmed ones on the GPU and the given ones here).
On the GPU the values are the compiled kernel's own (after its `_init_handles`, as Triton's
driver loads it); the CompiledKernel is not kept. Under the interpreter they come from the
evaluator's sm_90 compile of the same specialization (device_compile.check with `assemble`:
shared memory and warps off the lowering, registers and spills off the cubin by cuobjdump, as
the driver's cuFuncGetAttribute gives them). Where a kernel's lowering is skipped on the CPU
(a dot unrolled past what lowers in seconds: device_lowering._unrolled_dot_work) the warmup is
refused: values made up for it told the CPU from the GPU (red team rt67).
The static layer (evaluator.static_warmed) admits exactly this idiom in a candidate file.
"""
from __future__ import annotations

import functools
import inspect
import os
from typing import NamedTuple

from evaluator.launch_args import KernelArgumentError, check_arguments, unveiled


class WarmedMetadata(NamedTuple):
    """What the tutorial reads of a compiled kernel's metadata."""
    shared: int
    num_warps: int
    num_stages: int


class WarmedKernel:
    """The harness's answer to `kernel.warmup(...)`: plain values and a launcher through the
    JITFunction (module docstring)."""

    __slots__ = ("n_regs", "n_spills", "metadata", "_launch")

    def __init__(self, n_regs: int, n_spills: int, metadata: WarmedMetadata, launch) -> None:
        self.n_regs, self.n_spills, self.metadata, self._launch = int(n_regs), int(n_spills), metadata, launch

    def _init_handles(self) -> None:
        """Loaded already: nothing to do."""

    def __getitem__(self, grid):
        return functools.partial(self._launch, grid)


def _parameters(kernel) -> list[str]:
    return list(inspect.signature(kernel.fn).parameters)


def _launcher(kernel, args: tuple, kwargs: dict):
    """`launch(grid, *args)`: kernel[grid](...) with the warmup's launch options, the warmed
    tl.constexpr values held (module docstring)."""
    from evaluator.launch_args import _constexpr_names

    names = _parameters(kernel)
    signature = inspect.signature(kernel.fn)
    try:
        warmed = signature.bind(*args, **{k: v for k, v in kwargs.items() if k in names})
    except TypeError as exc:
        raise KernelArgumentError(f"kernel.warmup(...): {exc}") from None
    warmed.apply_defaults()
    constants = {n: warmed.arguments[n] for n in _constexpr_names(kernel) if n in warmed.arguments}
    options = {k: v for k, v in kwargs.items() if k not in names and k not in ("grid", "warmup")}
    by_keyword = [n for n in names[len(args):] if n in kwargs]  # as the warmup passed them
    title = getattr(kernel.fn, "__name__", "?")

    def launch(grid, *given, **extra):
        if extra or len(given) != len(names):
            raise KernelArgumentError(
                f"a warmed kernel of {title} is launched as its compiled launcher takes it: every "
                f"parameter ({len(names)}) positionally and nothing else; it got {len(given)}"
                + (f" and {', '.join(sorted(extra))[:200]}" if extra else ""))
        for name, value in zip(names, given):
            if name in constants and not _same(value, constants[name]):
                raise KernelArgumentError(
                    f"the warmed kernel of {title} was compiled with {name}={constants[name]!r}; a "
                    f"launch through it gave {value!r} (the GPU runs the compiled value): warm up the "
                    "kernel with the values you launch it with")
        at = {n: v for n, v in zip(names, given)}
        first = [at[n] for n in names if n not in by_keyword]
        kernel[grid](*first, **{n: at[n] for n in by_keyword}, **options)
        return None

    return launch


def _same(a: object, b: object) -> bool:
    a, b = getattr(a, "value", a), getattr(b, "value", b)
    return type(a) is type(b) and a == b


def _interpreted_values(kernel, args: tuple, kwargs: dict) -> tuple[int, int, WarmedMetadata]:
    """The sm_90 compile's values for this specialization (module docstring): read off its
    assembled cubin, or off the 16-aligned form's where only that fits a block
    (device_compile._fits_aligned), never made up. A specialization whose lowering the CPU
    skips (device_lowering._unrolled_dot_work) has no values here: its warmup is refused (red
    team rt67: the stand-in values, 0 spills and 0 bytes of shared memory for a 128x128x128
    fp32 FMA dot at one warp, which spills on the GPU, told the CPU from the GPU)."""
    from evaluator import device_compile
    from evaluator.device_lowering import ASSEMBLED, RESOURCES, KernelNotCompilable

    checked_args, checked = check_arguments(kernel, *unveiled(args, kwargs))
    device_compile.check(kernel, checked_args, {k: v for k, v in checked.items() if k not in ("grid", "warmup")},
                         assemble=True)
    key = device_compile.checked()  # no launch follows: the next launch's check sets its own
    for at in ((*key, "aligned"), key):  # the aligned form exists only where the launch's own was over a block
        if at in ASSEMBLED and at in RESOURCES:
            registers, spills, stages = ASSEMBLED[at]
            shared, warps = RESOURCES[at]
            return registers, spills, WarmedMetadata(int(shared), int(warps), int(stages))
    title = getattr(getattr(kernel, "fn", kernel), "__name__", "?")
    raise KernelNotCompilable(
        f"kernel {title}.warmup(...): its sm_90 lowering is not run on the CPU (a dot unrolled "
        "per thread past what lowers in seconds), so its registers, spills and shared memory "
        "cannot be read here; the CPU check does not judge an occupancy query of such a "
        "specialization (use smaller blocks, more warps or a tensor-core dot, or no warmup)")


def _gpu_values(compiled) -> tuple[int, int, WarmedMetadata]:
    compiled._init_handles()
    meta = compiled.metadata
    return compiled.n_regs, compiled.n_spills, WarmedMetadata(int(meta.shared), int(meta.num_warps),
                                                              int(meta.num_stages))


def wrap(original):
    """KernelInterface.warmup, answering a WarmedKernel."""

    def warmup(self, *args, grid, **kwargs):
        from triton.runtime.autotuner import Heuristics
        from triton.runtime.jit import JITFunction

        kernel = self
        if isinstance(self, Heuristics):
            raise KernelArgumentError("warmup of a @triton.heuristics kernel is not supported: warm up "
                                      "the @triton.jit kernel with the values themselves")
        compiled = original(self, *args, grid=grid, **kwargs)
        if os.environ.get("TRITON_INTERPRET") == "1" or not isinstance(kernel, JITFunction):
            values = _interpreted_values(kernel, args, {**kwargs, "grid": grid})
        else:
            values = _gpu_values(compiled)
        del compiled  # never handed out
        return WarmedKernel(*values, _launcher(kernel, args, kwargs))

    warmup.__wrapped_launch__ = original  # type: ignore[attr-defined]
    warmup.__name__ = "warmup"
    return warmup
