"""Under the CPU interpreter a kernel body runs only if Triton's GPU compiler accepts it.

Triton's interpreter runs a @triton.jit body as Python on numpy values: every construct the
GPU compiler refuses still runs there, and several hand the loaded values to host Python
(`range(v).stop`, `f"{v}"`, `int(v)`, `max(key=lambda ...)`, generator expressions, Python
lists). Red teams computed whole GEMMs, argmaxes and losses that way "inside a kernel"
(sessions 18, 20, 21: ok under strict). Refusing those constructs one at a time is a list;
this closes the class: before an interpreted launch runs, the launch's own specialization
(its arguments' types, its constexpr values, the alignment and value-1 specializations the
GPU launcher makes) goes through the GPU compiler's front end (`ASTSource.make_ir`, code
generation to TTIR for an sm_90 target, the same code Triton runs on the GPU before it
lowers anything), with the kernel's @triton.jit helpers and libdevice as the GPU would see
them. A body the compiler refuses raises its CompilationError, as the launch would on the
GPU, and never runs. What compiles has Triton semantics: a runtime `if` or `range(n)` in it
is device control flow on the GPU, and the interpreter's Python for it computes the same.

What the front end accepts goes on through the GPU's later passes (evaluator.device_lowering),
which read the lane-ordering facts the interpreter needs off the compiled module
(evaluator.device_ir). Cost: a few milliseconds per kernel and specialization for the front
end, 0.1 to 10 s for the lowering, once per process (cached). On the GPU nothing here runs: the
launch compiles there anyway.
"""
from __future__ import annotations

import contextlib
import functools
import threading
import types
from collections.abc import Iterator

from evaluator.device_lowering import (
    ASSEMBLED,
    RESOURCES,
    SCRATCH,
    SHARED_LIMIT,
    KernelNotAssembled,
    KernelNotCompilable,
    KernelOutOfResources,
    lower,
)

_LOCK = threading.Lock()
# (kernel, signature, constexprs, attrs) the front end accepted -> the parameters it made constants
_ACCEPTED: dict[tuple, frozenset] = {}
_LAST: list = []  # the specialization key `check` accepted last (`checked`)
_REFUSED: dict[tuple, Exception] = {}  # specialization key -> what its lowering raised (`lower`)
_CTAS: dict = {}  # specialization key -> num_ctas (`one_cta`)
_DEBUG: dict = {}  # specialization key -> whether it compiles with debug (`debug`)
_MIRRORS: dict[tuple, object] = {}  # (id(python function), jit options) -> its JITFunction mirror
# id(python function of a @triton.jit helper) -> the return types the front end gave it
# (`returned`): one per specialization compiled
_RETURNS: dict[int, list] = {}
_KEEP: list = []  # the functions _MIRRORS is keyed on, kept alive so no id is reused
_JIT_OPTIONS = ("do_not_specialize", "do_not_specialize_on_alignment", "noinline", "debug")



def _language_objects() -> list:
    """What the interpreter patches while a launch runs (`triton.runtime.interpreter._patch_lang`:
    the builtins of triton.language and its core, math, tensor, tensor descriptors, conditions,
    dtypes, range, reduce and scan) and a nested helper call can leave patched (its patch scope
    is never restored)."""
    import triton.language as tl

    return [tl, tl.core, tl.math, tl.tensor, tl.core.tensor_descriptor_base, tl.condition, tl.dtype]


def _library_modules() -> list:
    """Triton's modules that define @jit functions a kernel calls through them."""
    import triton.language as tl

    return [tl, tl.core, tl.standard, tl.math]


_PRISTINE: list[tuple[object, dict]] = []


def snapshot() -> None:
    """Take the language's own attributes (once, before any interpreted launch patches them)."""
    if not _PRISTINE:
        _PRISTINE.extend((obj, dict(vars(obj))) for obj in _language_objects())


@contextlib.contextmanager
def _gpu_language() -> Iterator[None]:
    """triton.language as the GPU compiler sees it: every attribute the interpreter patched
    since the snapshot (taken in the zygote, before any launch) put back meanwhile, and
    libdevice's numpy versions (evaluator.interpreter_libdevice) Triton's own declarations."""
    from triton.runtime.interpreter import InterpretedFunction

    from evaluator import interpreter_libdevice

    snapshot()
    changed: list[tuple[object, str, object]] = []
    try:
        for obj, pristine in _PRISTINE:
            now = dict(vars(obj))
            for name, value in pristine.items():
                if now.get(name, _MISSING) is not value:
                    changed.append((obj, name, now.get(name, _MISSING)))
                    setattr(obj, name, value)
            for name in now.keys() - pristine.keys():
                changed.append((obj, name, now[name]))
                delattr(obj, name)
        # under TRITON_INTERPRET Triton's own @jit functions (tl.zeros, tl.cdiv, tl.sigmoid, ...)
        # are interpreted ones, which the code generator would call as plain Python; and so are
        # those Triton sets on tl.tensor as its methods (`x.sum(axis=0)`, `x.sigmoid()`: honest
        # round s45, a compile error on the CPU only)
        import triton.language as tl

        for obj in (*_library_modules(), tl.core.tensor):
            for name, value in list(vars(obj).items()):
                interpreted = _member_of(value) if obj is tl.core.tensor else None
                if isinstance(value, InterpretedFunction) or interpreted is not None:
                    changed.append((obj, name, value))
                    setattr(obj, name, _mirror(interpreted or value))
        with interpreter_libdevice.originals():
            yield
    finally:
        for obj, name, value in reversed(changed):
            if value is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, value)


_MISSING = object()


def _member_of(value: object) -> object | None:
    """The interpreted @jit function a tl.tensor method forwards to (`_tensor_member_fn`'s
    wrapper, where on the GPU the method is the JITFunction itself), else None."""
    from triton.runtime.interpreter import InterpretedFunction

    cells = getattr(value, "__closure__", None) or ()
    found = [c.cell_contents for c in cells if isinstance(c.cell_contents, InterpretedFunction)]
    return found[0] if len(found) == 1 and getattr(value, "__name__", "") == "wrapper" else None


@functools.cache
def _backend():
    """The GPU target the front end compiles for (an H100/H200), and its backend."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend

    target = GPUTarget("cuda", 90, 32)
    return target, make_backend(target)


def _mirror(interpreted) -> object:
    """A JITFunction over the same code as an interpreted kernel, in a copy of its module's
    globals where every interpreted kernel is mirrored too and libdevice's numpy versions are
    Triton's own functions."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    from evaluator import interpreter_libdevice

    fn = interpreted.fn
    options = {k: v for k, v in (getattr(interpreted, "kwargs", None) or {}).items() if k in _JIT_OPTIONS}
    mirrored = (id(fn), repr(sorted(options.items())))  # one function jitted twice: two kernels
    found = _MIRRORS.get(mirrored)
    if found is not None:
        return found
    scope: dict = {}
    copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__qualname__, copy.__module__, copy.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    mirror = JITFunction(copy, **options)
    mirror._krl_origin = fn  # what the code generator's return types are recorded against
    _MIRRORS[mirrored] = mirror
    _KEEP.append(fn)
    nested = []
    for name, value in list(fn.__globals__.items()):  # filled after the mirror exists: recursion ends
        if isinstance(value, InterpretedFunction):
            nested.append(value)
            value = _mirror(value)
        else:
            value = interpreter_libdevice.original(value)
        scope[name] = value
    # the interpreter takes each kernel's globals when it first rewrites it (a snapshot,
    # evaluator.interpreter_scope.device_scope), a helper's only when a body first calls it:
    # a callable grid runs between this check and that call and could rebind the module's
    # name of a checked helper to an unchecked one. Taken now, the snapshots are the ones
    # checked here.
    for value in nested:
        value.rewrite()
    return mirror


def check(interpreted, args: tuple, kwargs: dict, assemble: bool = False) -> frozenset:
    """Raise what Triton's GPU compiler raises for this launch of `interpreted` (an
    InterpretedFunction) with these arguments; if its front end accepts it, return the paths
    (parameter name, then indices into a tuple) of the plain parameters and tuple elements the
    launcher specialised to a constant (an int equal to 1 is a
    constexpr on the GPU, where `(one - 2) // 2` is Python's floor division: -1, and the
    interpreter's i32 scalar divides by truncation: 0; red team s36 made a kernel that is
    empty on the GPU and a ReLU on the CPU of it). With `assemble` the specialization is also
    assembled for sm_90, for its registers (device_lowering.ASSEMBLED; evaluator.warmed_kernel)."""
    from triton.compiler.errors import CompilationError
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import create_function_from_signature

    target, backend = _backend()
    with _LOCK:
        # a device function handed as a constexpr (`ACTIVATION=relu`) is its mirror, as the
        # GPU launcher would be handed the JITFunction
        passed = [v for v in (*args, *kwargs.values()) if type(v) is InterpretedFunction]
        args = tuple(_mirror(a) if type(a) is InterpretedFunction else a for a in args)
        kwargs = {k: _mirror(v) if type(v) is InterpretedFunction else v for k, v in kwargs.items()}
        for value in passed:  # its globals' snapshot is the one checked (as `_mirror`'s helpers)
            value.rewrite()
        mirror = _mirror(interpreted)
        binder = getattr(mirror, "_krl_binder", None)
        if binder is None:
            binder = create_function_from_signature(mirror.signature, mirror.params, backend)
            mirror._krl_binder = binder
        # what the GPU launcher raises for arguments it cannot bind (a missing one, an
        # unknown keyword) it raises here too
        from triton import knobs

        # as JITFunction.run sets it before binding: the jit's debug, a launch's, TRITON_DEBUG
        kwargs["debug"] = kwargs.get("debug", mirror.debug) or knobs.runtime.debug
        bound, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = mirror._pack_args(backend, kwargs, bound, specialization, options)
        key = (id(interpreted.fn), repr(sorted(signature.items())), repr(sorted(constexprs.items())),
               repr(sorted(attrs.items())), repr(sorted(options.__dict__.items())))
        _LAST[:] = [key]
        _CTAS[key] = getattr(options, "num_ctas", None)
        _DEBUG[key] = bool(getattr(options, "debug", False))
        if key in _ACCEPTED and not (assemble and key not in ASSEMBLED and (*key, "aligned") not in ASSEMBLED):
            # (a warmed kernel's registers: its own form's, or the 16-aligned one's, assembled)
            _allocator_set(key, interpreted.fn.__name__)
            return _ACCEPTED[key]
        if key in _REFUSED:  # an autotuner asks of every config at each launch (child.py)
            refused = _REFUSED[key]
            raise type(refused)(*refused.args)
        try:
            with _recording_returns():
                module = _front_end(mirror, signature, constexprs, attrs, options)
        except CompilationError:
            raise
        except Exception as exc:  # noqa: BLE001  (fails closed: nothing the compiler did not accept runs)
            raise KernelNotCompilable(
                f"Triton's GPU compiler could not compile the kernel {interpreted.fn.__name__}: "
                f"{type(exc).__name__}: {exc}"[:2000]) from None
        try:
            lower(backend, module, options, target, key, interpreted.fn.__name__, assemble)
        except KernelOutOfResources as exc:
            near = RESOURCES.get(key, (0, 0))[0] <= SHARED_LIMIT * 5 // 4  # alignment moves a few buffers
            if not (near and _fits_aligned(mirror, (signature, constexprs, attrs), options, key, interpreted.fn.__name__,
                                           assemble)):
                _REFUSED[key] = exc
                raise
        except KernelNotCompilable as exc:
            _REFUSED[key] = exc
            raise
        _allocator_set(key, interpreted.fn.__name__)
        names = [p.name for p in mirror.params]
        # (parameter, index in its tuple, ...): an element of a tuple argument is specialised too
        _ACCEPTED[key] = frozenset(
            (names[path[0]], *path[1:]) for path, value in constexprs.items()
            if not mirror.params[path[0]].is_constexpr and type(value) is int)
        return _ACCEPTED[key]


def _allocator_set(key: tuple, name: str) -> None:
    """A launch whose compiled form needs global scratch (a device-side tensor descriptor) gets
    it from the allocator `triton.set_allocator` set: with none set, the GPU's launch raises
    (red team s44: the interpreter never allocates, and ran such a kernel without one)."""
    from triton.runtime import _allocation

    if SCRATCH.get(key, 0) > 0 and isinstance(_allocation._allocator.get(), _allocation.NullAllocator):
        raise KernelNotCompilable(
            f"the kernel {name} needs {SCRATCH[key]} bytes of global scratch memory per program as "
            "compiled for sm_90 (a device-side tensor descriptor), and no allocator was set: the GPU "
            "launch raises \"Kernel requires a runtime memory allocation, but no allocator was set\". "
            "Call triton.set_allocator with an allocator (Triton tutorial 09) before the launch")


def debug(key: tuple | None) -> bool:
    """Whether the launch `key` compiles with debug (`@triton.jit(debug=True)`, a `debug=True`
    launch option, TRITON_DEBUG): on the GPU its tl.device_assert and integer overflow checks
    trap; the interpreter runs them only where it is told (`interpreter_guard`)."""
    return key is not None and _DEBUG.get(key, False)


def _front_end(mirror, signature: dict, constexprs: dict, attrs: dict, options):
    """The GPU compiler's front end (`ASTSource.make_ir`) for sm_90 on one specialization, with
    the language as Triton defines it: the module TTIR's passes start from."""
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource

    target, backend = _backend()
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    with _gpu_language():
        return ASTSource(mirror, signature, constexprs, attrs).make_ir(
            target, options, backend.get_codegen_implementation(options), backend.get_module_map(), context)


def _fits_aligned(mirror, spec: tuple, options, key: tuple, name: str, assemble: bool = False) -> bool:
    """Whether the launch, over a block's resources at its own specialization, fits where every
    pointer and integer argument is 16-divisible, as the problem's GPU sizes make them. The
    CPU's sizes are small odd stand-ins (M=70, K=90): without the alignment the pipeliner's
    buffers are laid out differently, and Triton tutorial 09's fp32 persistent matmul needed
    262144 bytes there against 229376 at its GPU sizes, on the H200 too (honest round s43).
    Resources are the GPU's sizes' question; the kernel's semantics stay the launch's own.
    With `assemble` the aligned form's registers are read too (`(*key, "aligned")` in
    ASSEMBLED: a warmed kernel's occupancy query, evaluator.warmed_kernel)."""

    signature, constexprs, attrs = spec
    names = list(signature)
    aligned = {path: [list(a) for a in value] for path, value in attrs.items()}
    for path, value in aligned.items():
        kind = signature.get(names[path[0]]) if len(path) == 1 and path[0] < len(names) else None
        if isinstance(kind, str) and (kind.startswith("*") or kind in ("i32", "i64", "u32", "u64")) \
                and ["tt.divisibility", 16] not in value:
            value.append(["tt.divisibility", 16])
    if aligned == attrs:
        return False
    target, backend = _backend()
    try:
        module = _front_end(mirror, signature, constexprs, aligned, options)
        lower(backend, module, options, target, (*key, "aligned"), name, assemble)
    except Exception:  # noqa: BLE001  (over the block at the GPU's alignment too, or worse)
        return False
    return True


@contextlib.contextmanager
def _recording_returns() -> Iterator[None]:
    """Record the type the code generator gives each helper's returns (`handle_returns`, after
    `decide_return_type` unified every return statement it visited)."""
    from triton.compiler.code_generator import CodeGenerator

    handle = CodeGenerator.__dict__["handle_returns"]

    def handle_returns(self):
        handle(self)
        origin = getattr(getattr(self, "jit_fn", None), "_krl_origin", None)
        if origin is not None:
            seen = _RETURNS.setdefault(id(origin), [])
            if not any(ty == self.ret_type for ty in seen):  # types compare, some do not hash
                seen.append(self.ret_type)

    CodeGenerator.handle_returns = handle_returns
    try:
        yield
    finally:
        CodeGenerator.handle_returns = handle


def returned(fn, value):
    """A @triton.jit helper's return value (`fn` its Python function) as the GPU has it: where
    the front end typed every specialization of `fn` it compiled alike, a Python number among
    what the interpreter returned becomes a Triton scalar of that type. The GPU compiles the
    return statements of a helper to one type (`CodeGenerator.decide_return_type`): two
    different constants, or a constant and an i32, make an i32, whose division truncates and
    whose sum wraps, where the interpreter returned Python's int from whichever statement ran
    (`1 // -2`: 0 on the GPU, -1 on the CPU; a CPU-only divergence named open in session 37). A
    helper with one constant return keeps its constexpr, and a helper typed differently in
    different specializations is left as the interpreter returns it."""
    types_ = _RETURNS.get(id(fn))
    if not types_ or len(types_) != 1:
        return value
    return _as_type(value, types_[0])


def _as_type(value, ty):
    import triton.language as tl
    from triton.runtime.interpreter import interpreter_semantic

    if isinstance(ty, tl.tuple_type):
        if not isinstance(value, (tuple, tl.tuple)) or len(value) != len(ty.types):
            return value
        items = [_as_type(v, t) for v, t in zip(value, ty.types)]
        return tl.tuple(items, ty) if isinstance(value, tl.tuple) else tuple(items)
    if not isinstance(ty, tl.dtype) or isinstance(ty, tl.block_type):
        return value  # a constexpr (or a block, which no number is)
    number = value.value if isinstance(value, tl.constexpr) else value
    if type(number) not in (bool, int, float):
        return value
    scalar = interpreter_semantic.to_tensor(number, False)
    return scalar if scalar.dtype == ty else interpreter_semantic.cast(scalar, ty)



def one_cta(key: tuple | None) -> bool:
    """Whether the launch `key` runs each program as one CTA (num_ctas=1, the default). With a
    cluster of several (num_ctas=2 on sm_90) a program's tile is split over CTAs, and a barrier
    (bar.sync: tl.debug_barrier(), a cross-warp reduction, a scalar atomic's hand-off) orders
    only its own CTA's threads (red team s42: each CTA reloaded the row the other stored,
    ordered by a tl.sum or a tl.debug_barrier that never meets across the cluster)."""
    return key is not None and _CTAS.get(key) == 1


def fits(kernel, args: tuple, kwargs: dict) -> bool:
    """Whether a launch of `kernel` (an InterpretedFunction, or Heuristics around one, whose
    values are computed here as its run would) with these arguments compiles for sm_90 within
    its resources and static asserts: what a GPU autotuner's benchmark of a config learns
    (OutOfResources, PTXASError and CompileTimeAssertionFailure make a config's time infinite). Any other
    failure answers True: the launch itself raises it."""
    from triton.compiler.errors import CompileTimeAssertionFailure
    from triton.runtime.autotuner import Heuristics

    from evaluator.launch_args import check_arguments, unveiled

    kwargs = dict(kwargs)
    try:
        while isinstance(kernel, Heuristics):
            for name, heuristic in kernel.values.items():
                kwargs[name] = heuristic({**dict(zip(kernel.arg_names, args)), **kwargs})
            kernel = kernel.fn
        # as the kernel's own run takes them (launch_hook): its device functions unveiled
        args, kwargs = check_arguments(kernel, *unveiled(args, kwargs))
        check(kernel, args, {k: v for k, v in kwargs.items() if k not in ("grid", "warmup")})
    except (KernelOutOfResources, KernelNotAssembled, CompileTimeAssertionFailure):
        return False
    except Exception:  # noqa: BLE001  (the launch raises it where it matters)
        return True
    return True


def checked() -> tuple | None:
    """The specialization key of the launch `check` accepted last, once (the launch that runs
    next takes it: `interpreter_guard`)."""
    key, _LAST[:] = (_LAST[0] if _LAST else None), []
    return key


def warm_up() -> None:
    """Load the GPU backend and the front end once (in the zygote, before any candidate)."""
    from triton._C.libtriton import ir

    snapshot()  # before any launch: the language as Triton defines it
    _, backend = _backend()
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
