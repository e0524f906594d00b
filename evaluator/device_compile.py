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

Cost: a few milliseconds per kernel and specialization, once per process (cached). On the
GPU nothing here runs: the launch compiles there anyway.
"""
from __future__ import annotations

import contextlib
import functools
import os
import re
import threading
import types
from collections.abc import Iterator

_LOCK = threading.Lock()
# (kernel, signature, constexprs, attrs) the front end accepted -> the parameters it made constants
_ACCEPTED: dict[tuple, frozenset] = {}
# (file, line) of a scalar atomic in a compiled kernel -> whether its old value has a use in
# every specialization compiled (`scalar_atomic_used`)
_SCALAR_ATOMICS: dict[tuple, bool] = {}
# set once a compiled scalar atomic could not be keyed (a location that is not one chain) or a
# kernel's walk failed: from then on no scalar atomic is a barrier in this process (an
# atomic left out of the record must not leave another's True standing, red team s36)
_UNRECORDED: list[bool] = []
# (specialization key, (file, line, column)s) of a tl.reduce / tl.associative_scan (tl.max,
# tl.sum, tl.cumsum, ...) in a compiled kernel -> the loops around it where it spreads its
# reduced axis's data over more than one warp, else False (`reduction_barrier`);
# `_REDUCTIONS_UNRECORDED` as `_UNRECORDED`
_REDUCTIONS: dict[tuple, bool] = {}
_REDUCTIONS_UNRECORDED: list[bool] = []
_LAST: list = []  # the specialization key `check` accepted last (`checked`)
_REFUSED: dict[tuple, Exception] = {}  # specialization key -> what its lowering raised (`_lower`)
_CTAS: dict = {}  # specialization key -> num_ctas (`one_cta`)
# (specialization key, (file, line, column)s) of a global load -> the numbers of loops around
# its compiled ops (`moved_load`); keys whose loads could not all be placed
_LOADS: dict[tuple, set] = {}
_LOADS_BLIND: set = set()
_GLOBAL_READS = frozenset({"tt.load", "ttg.async_copy_global_to_local", "ttng.async_tma_copy_global_to_local",
                           "tt.descriptor_load", "tt.descriptor_gather"})
_MIRRORS: dict[int, object] = {}  # id(python function) -> its JITFunction mirror
# id(python function of a @triton.jit helper) -> the return types the front end gave it
# (`returned`): one per specialization compiled
_RETURNS: dict[int, list] = {}
_KEEP: list = []  # the functions _MIRRORS is keyed on, kept alive so no id is reused
_JIT_OPTIONS = ("do_not_specialize", "do_not_specialize_on_alignment", "noinline", "debug")


class KernelNotCompilable(RuntimeError):
    """Raised in place of the compiler's own error where it has none (an internal failure of
    the front end is refused too: the check fails closed)."""


class KernelOutOfResources(KernelNotCompilable):
    """A compiled kernel needs more of an sm_90 block than it has: on the GPU the launch raises
    OutOfResources, which an autotuner takes as a config to skip (`fits`)."""


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
        # are interpreted ones, which the code generator would call as plain Python
        for obj in _library_modules():
            for name, value in list(vars(obj).items()):
                if isinstance(value, InterpretedFunction):
                    changed.append((obj, name, value))
                    setattr(obj, name, _mirror(value))
        with interpreter_libdevice.originals():
            yield
    finally:
        for obj, name, value in reversed(changed):
            if value is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, value)


_MISSING = object()


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
    found = _MIRRORS.get(id(fn))
    if found is not None:
        return found
    scope: dict = {}
    copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__qualname__, copy.__module__, copy.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    options = {k: v for k, v in (getattr(interpreted, "kwargs", None) or {}).items() if k in _JIT_OPTIONS}
    mirror = JITFunction(copy, **options)
    mirror._krl_origin = fn  # what the code generator's return types are recorded against
    _MIRRORS[id(fn)] = mirror
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


def check(interpreted, args: tuple, kwargs: dict) -> frozenset:
    """Raise what Triton's GPU compiler raises for this launch of `interpreted` (an
    InterpretedFunction) with these arguments; if its front end accepts it, return the paths
    (parameter name, then indices into a tuple) of the plain parameters and tuple elements the
    launcher specialised to a constant (an int equal to 1 is a
    constexpr on the GPU, where `(one - 2) // 2` is Python's floor division: -1, and the
    interpreter's i32 scalar divides by truncation: 0; red team s36 made a kernel that is
    empty on the GPU and a ReLU on the CPU of it)."""
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
        bound, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = mirror._pack_args(backend, kwargs, bound, specialization, options)
        key = (id(interpreted.fn), repr(sorted(signature.items())), repr(sorted(constexprs.items())),
               repr(sorted(attrs.items())), repr(sorted(options.__dict__.items())))
        _LAST[:] = [key]
        _CTAS[key] = getattr(options, "num_ctas", None)
        if key in _ACCEPTED:
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
            _lower(backend, module, options, target, key, interpreted.fn.__name__)
        except KernelOutOfResources as exc:
            near = RESOURCES.get(key, (0, 0))[0] <= SHARED_LIMIT * 5 // 4  # alignment moves a few buffers
            if not (near and _fits_aligned(mirror, (signature, constexprs, attrs), options, key, interpreted.fn.__name__)):
                _REFUSED[key] = exc
                raise
        except KernelNotCompilable as exc:
            _REFUSED[key] = exc
            raise
        names = [p.name for p in mirror.params]
        # (parameter, index in its tuple, ...): an element of a tuple argument is specialised too
        _ACCEPTED[key] = frozenset(
            (names[path[0]], *path[1:]) for path, value in constexprs.items()
            if not mirror.params[path[0]].is_constexpr and type(value) is int)
        return _ACCEPTED[key]


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


def _fits_aligned(mirror, spec: tuple, options, key: tuple, name: str) -> bool:
    """Whether the launch, over a block's resources at its own specialization, fits where every
    pointer and integer argument is 16-divisible, as the problem's GPU sizes make them. The
    CPU's sizes are small odd stand-ins (M=70, K=90): without the alignment the pipeliner's
    buffers are laid out differently, and Triton tutorial 09's fp32 persistent matmul needed
    262144 bytes there against 229376 at its GPU sizes, on the H200 too (honest round s43).
    Resources are the GPU's sizes' question; the kernel's semantics stay the launch's own."""

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
        _lower(backend, module, options, target, (*key, "aligned"), name)
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


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
# after a file name: `:line:col`, optionally a range's end (`to :col`, `to line:col`)
_LINE_COL = re.compile(r':(\d+):(\d+)(?: to (?:\d+)?:\d+)?')


def location_chain(text: str, columns: bool = False) -> tuple | None:
    """The (file, line)s of a printed MLIR location, innermost first (`columns`: (file, line,
    column)s, the column 1-based as MLIR prints it): a file:line:col, a call
    site (callee, then caller), a name (`"x"(child)`: Triton 3.9 names a location after the
    variable assigned) read through to its child. None for anything that is not one chain (a
    fused location, an unknown one, a name without a child, text this grammar does not read).
    Read by structure, never by searching the text: a variable named `fused` once made a
    substring test skip its atomic (red team s36)."""
    if not (text.startswith("loc(") and text.endswith(")")):
        return None
    try:
        chain, end = _chain(text, 4)
    except (ValueError, IndexError, RecursionError):
        return None
    if chain is None or end != len(text) - 1:
        return None
    return chain if columns else tuple((file, line) for file, line, _ in chain)


def _chain(text: str, i: int) -> tuple[tuple | None, int]:
    if text.startswith("callsite(", i):
        callee, i = _chain(text, i + len("callsite("))
        if not text.startswith(" at ", i):
            raise ValueError(text)
        caller, i = _chain(text, i + len(" at "))
        if text[i] != ")":
            raise ValueError(text)
        return (callee + caller if callee and caller else None), i + 1
    string = _STRING.match(text, i)
    if string is None:
        raise ValueError(text)  # fused[...], unknown, or what this grammar does not know
    i = string.end()
    position = _LINE_COL.match(text, i)
    if position is not None:
        return ((string.group(1), int(position.group(1)), int(position.group(2))),), position.end()
    if text.startswith("(", i):  # a name with its child location
        child, i = _chain(text, i + 1)
        if text[i] != ")":
            raise ValueError(text)
        return child, i + 1
    return None, i  # a name alone


# sm_90's opt-in shared memory per block (cudaDevAttrMaxSharedMemoryPerBlockOptin on an H100 or
# H200) and threads per block: a compiled kernel over either fails its launch there
# (CompiledKernel's OutOfResources, cudaErrorInvalidValue)
SHARED_LIMIT = 232448
RESOURCES: dict[tuple, tuple[int, int]] = {}  # specialization key -> (shared bytes, warps) compiled
THREAD_LIMIT = 1024


def _lower(backend, module, options, target, key: tuple, name: str) -> None:
    """Run the GPU compiler's passes past the front end, as a GPU launch would before it
    loads the kernel: TTIR, TTGIR (read for the lane records, `_record_scalar_atomics`), and
    the lowering to LLVM IR (shared-memory allocation, warp specialization, membar). A kernel
    a later pass refuses, or whose compiled form needs more shared memory or threads than an
    sm_90 block has, never runs on the GPU, so it does not run here either (red team s42
    round 1: `warp_specialize=True` loops that only the lowering refuses ran on the CPU).
    Raises KernelNotCompilable."""
    try:
        module = backend.make_ttir(module, {}, options, target.arch)
        module = backend.make_ttgir(module, {}, options, target.arch)
        _record_scalar_atomics(module, key)
        _buffers_fit(module, options, key, name)
        if _unrolled_dot_work(module) > options.num_warps * 32 * _UNROLLED_PER_THREAD:
            return  # its lowering would take minutes here (`_unrolled_dot_work`): not judged
        with _mlir_only():
            backend.make_llir(module, {}, options, target.arch)
    except (_MlirDone, KernelOutOfResources) as exc:
        if isinstance(exc, KernelOutOfResources):
            raise
    except Exception as exc:  # noqa: BLE001  (what the GPU's compiler refuses never runs)
        raise KernelNotCompilable(
            f"Triton's GPU compiler could not lower the kernel {name} for sm_90 (the GPU launch "
            f"would fail the same way): {type(exc).__name__}: {exc}"[:2000]) from None
    # what make_llir reads into the kernel's metadata, off the module its passes left
    shared = module.get_int_attr("ttg.shared") or 0
    warps = module.get_int_attr("ttg.total-num-warps") or options.num_warps
    RESOURCES[key] = (shared, warps)
    if shared > SHARED_LIMIT:
        raise KernelOutOfResources(
            f"the kernel {name} needs {shared} bytes of shared memory per program as compiled "
            f"for sm_90 (num_stages={options.num_stages}, num_warps={options.num_warps}); an H100 "
            f"or H200 block has {SHARED_LIMIT}: the GPU launch fails with OutOfResources. Use "
            "smaller blocks or fewer stages")
    if warps * 32 > THREAD_LIMIT:
        raise KernelOutOfResources(
            f"the kernel {name} runs {warps} warps per program ({warps * 32} threads); an sm_90 "
            f"block has at most {THREAD_LIMIT} threads: the GPU launch fails")


_BUFFER = re.compile(r"memdesc<((?:\d+x)+)([a-zA-Z]+)(\d+)")


def _buffers_fit(module, options, key: tuple, name: str) -> None:
    """Refuse, before the lowering, a kernel one of whose shared-memory buffers alone is over an
    sm_90 block (`ttg.local_alloc` in TTGIR: a pipeliner's multi-buffer, a dot operand's
    staging): the lowering of such a tile takes minutes on the CPU (a 256x256 fp32 dot in
    registers timed a 60 s evaluation out) and ends over the limit anyway. The largest single
    buffer is a lower bound of what the allocator lays out."""
    largest = 0

    def visit(op) -> None:
        nonlocal largest
        if op.get_name() == "ttg.local_alloc" and op.get_num_results() == 1:
            found = _BUFFER.search(str(op.get_result(0).get_type()))
            if found:
                dims = [int(d) for d in found.group(1).rstrip("x").split("x")]
                size = max(int(found.group(3)), 8) // 8
                for d in dims:
                    size *= d
                largest = max(largest, size)

    module.walk(visit)
    if largest > SHARED_LIMIT:
        RESOURCES[key] = (largest, options.num_warps)
        raise KernelOutOfResources(
            f"the kernel {name} needs at least {largest} bytes of shared memory per program as "
            f"compiled for sm_90 (num_stages={options.num_stages}, num_warps={options.num_warps}); "
            f"an H100 or H200 block has {SHARED_LIMIT}: the GPU launch fails with OutOfResources. "
            "Use smaller blocks or fewer stages")


_DOT = re.compile(r"tensor<(\d+)x(\d+)x")
_UNROLLED_PER_THREAD = 32768


def _unrolled_dot_work(module) -> int:
    """The multiply-adds of the largest `tt.dot` the TTGIR passes left to the FMA path (one not
    turned into a tensor-core op: fp32 at input_precision="ieee"), which the lowering unrolls
    per thread: a 256x256x256 fp32 dot in registers took 121 s to lower on the CPU and timed
    a 60 s evaluation out (hack rt2). Past `_UNROLLED_PER_THREAD` per thread the launch is
    not lowered here (its later passes and resources not judged, its buffers still are:
    `_buffers_fit`); the GPU compiles it for itself."""
    largest = 0

    def visit(op) -> None:
        nonlocal largest
        if op.get_name() == "tt.dot" and op.get_num_operands() >= 2:
            a = _DOT.search(str(op.get_operand(0).get_type()))
            b = _DOT.search(str(op.get_operand(1).get_type()))
            if a and b:
                largest = max(largest, int(a.group(1)) * int(a.group(2)) * int(b.group(2)))

    module.walk(visit)
    return largest


class _MlirDone(Exception):
    """make_llir's MLIR passes ran; what follows is LLVM's own optimisation."""


@contextlib.contextmanager
def _mlir_only() -> Iterator[None]:
    """Stop the NVIDIA backend's make_llir where its MLIR pipeline has run (shared-memory
    allocation, warp specialization, the conversion to the LLVM dialect: where a kernel the
    front end accepted is refused) and LLVM's O3 would start: that costs seconds to minutes
    on a large tile (101 s for a 256x256 fp32 dot) and refuses nothing the passes did not."""
    import triton.backends.nvidia.compiler as nvidia

    real = nvidia.llvm

    class _Stop:
        def __getattr__(self, attr):
            if attr == "init_targets":
                raise _MlirDone
            return getattr(real, attr)

    nvidia.llvm = _Stop()
    try:
        yield
    finally:
        nvidia.llvm = real


def _record_scalar_atomics(module, key: tuple) -> None:
    """Which scalar atomics of this kernel keep a use of their old value once Triton's TTIR and
    TTGIR passes (inlining, canonicalisation, dead-code elimination, sccp) have run, and which
    reductions and scans spread their axis over several warps (`_record_reductions`). Triton
    lowers a scalar atomic to one thread's and hands the old value to the other threads through
    shared memory behind a barrier only where that value has a use (`atomicNeedsSharedMemory`):
    a statement, a name never read, `_seen = _t`, `atomic(...) and 0` all leave none, and no
    barrier (red team s35 read the use off the source and got past it four ways; on the
    H200 those scans were wrong). The module after the TTGIR passes, the one the lowering
    reads, is walked op by op: a result is used where some
    op has it as an operand (values by identity: a search of the printed text took a noinline
    helper's own %7 for a use of the kernel's, red team s35). Recorded by the atomic's source
    line and the lines of the calls that reached it, to the launched kernel's own (innermost
    first: one helper's atomic is used at one call and dropped at another, and a helper
    launched on its own is another chain); where the walk fails or a location is not one
    chain, no scalar atomic is credited as a barrier from then on."""
    try:
        # read after TTGIR: the lowering decides on the module its passes leave (sccp, licm, the
        # canonicaliser again): a store behind a mask only sccp proves false kept a use in TTIR
        # and none at the lowering (red team s35 round 4, 0 bar.sync on sm_90)
        atomics, operands, reductions, owners = [], set(), [], {}

        def visit(op) -> None:
            for i in range(op.get_num_operands()):
                operands.add(op.get_operand(i).id())
            for i in range(op.get_num_regions()):  # the walk is post-order: a loop after its body
                owners[op.get_region(i).id()] = op
            name = op.get_name()
            if name in ("tt.atomic_rmw", "tt.atomic_cas") and op.get_num_results() == 1:
                result = op.get_result(0)
                if not str(result.get_type()).startswith("tensor<"):
                    atomics.append((result.id(), str(result.get_loc())))
            elif name in ("tt.reduce", "tt.scan") and op.get_num_results() >= 1:
                reductions.append((op, str(op.get_operand(0).get_type()), op.get_int_attr("axis"),
                                   str(op.get_result(0).get_loc())))
            elif name in _GLOBAL_READS and op.get_num_results() >= 1:
                loads.append((op, str(op.get_result(0).get_loc())))
            elif name == "tt.call":  # a noinline helper's ops carry its own lines only
                _LOADS_BLIND.add(key)

        loads: list = []
        module.walk(visit)
        reductions = [(_loops(op, owners), *rest) for op, *rest in reductions]
        loads = [(_loops(op, owners), loc) for op, loc in loads]
    except Exception:  # noqa: BLE001  (a walk that fails closes: no atomic orders lanes from now on)
        _UNRECORDED.append(True)
        _REDUCTIONS_UNRECORDED.append(True)
        _LOADS_BLIND.add(key)
        return
    _record_loads(key, loads)
    for value, loc in atomics:
        site = location_chain(loc)
        if site is None:
            _UNRECORDED.append(True)
        else:
            _SCALAR_ATOMICS[site] = _SCALAR_ATOMICS.get(site, True) and value in operands
    _record_reductions(key, reductions)


def kernel_site(loc: str) -> tuple | None:
    """A compiled op's (file, line, column) chain without its innermost frames in Triton's own
    library (tl.max's body, tl.sum's): what the interpreter's frames of the kernel give."""
    import triton

    library = os.path.dirname(os.path.abspath(triton.__file__)) + os.sep
    site = location_chain(loc, columns=True)
    while site and os.path.abspath(site[0][0]).startswith(library):
        site = site[1:]
    return site


def _record_loads(key: tuple, loads: list) -> None:
    """The loops around each global load of a compiled kernel, by call site (as
    `_record_reductions`'s). Triton's software pipeliner (a loop `tl.range(..., num_stages=3)`,
    or loads feeding tl.dot) issues a loop's loads iterations early: a copy in the loop's
    prologue, outside it, and in the loop one for a later iteration; LICM hoists a load out of
    a loop. Such a load reads memory before the stores the loop made in between, where the
    interpreter reads it in order (red team s42: a running carry kept in scratch and reloaded by
    the lane that stored it; on sm_90, cp.async of the carry before the previous iteration's
    store). `moved_load` tells the interpreter which loads the compiled code no longer makes
    where the source does."""
    for loops, loc in loads:
        site = kernel_site(loc)
        if not site:
            _LOADS_BLIND.add(key)
            continue
        _LOADS.setdefault((key, site), set()).add(loops)


def moved_load(key: tuple | None, site: tuple, loops: int) -> bool:
    """Whether the compiled launch `key` makes the load at `site` ((file, line, column)s) other
    than where the source does, in `loops` loops: in fewer (hoisted, a pipeliner's prologue) or
    in several places. A launch the front end never checked, a location that could not be
    read, or a kernel that still calls a helper (`noinline=True`: the helper's ops carry its
    own lines, not the chain the interpreter sees; red team s42 round 2 pipelined a reload
    there): every load may be."""
    if key is None or key in _LOADS_BLIND:
        return True
    depths = _LOADS.get((key, site))
    return depths is not None and depths != {loops}  # none: compiled away (unused, merged)


def _loops(op, owners: dict) -> int:
    """How many loops (scf.for, scf.while) hold `op` in the compiled module."""
    depth = 0
    while True:
        block = op.get_block()
        owner = None if block is None else owners.get(block.get_parent().id())
        if owner is None:
            return depth
        depth += owner.get_name() in ("scf.for", "scf.while")
        op = owner


def _record_reductions(key: tuple, reductions: list) -> None:
    """Which reductions and scans of a compiled kernel are a barrier of its program's lanes.
    Triton reduces (and scans) an axis within each thread, then across the lanes of a warp by
    shuffles, and, where the axis's distinct data lies in more than one warp, through shared
    memory between two barriers (`ReduceOpHelper::isWarpSynchronous`, bar.sync on sm_90):
    every thread of the program reaches that point before any goes on, as at
    tl.debug_barrier(). Liger-Kernel's cross entropy loads its target's logit as a scalar,
    takes block-wide tl.max/tl.sum over the row, then stores the gradient over that logit in
    place (honest round s41: refused as a race of its lanes). Read off the operand's layout as
    the TTGIR passes leave it (`_crosses_warps`), per specialization (`key`: a reduction that
    only one specialization uses is compiled away in the others, and with it its barrier) and
    per call, by the (file, line, column)s of the call and of the helper calls that reached it
    (two calls on one line are two sites: the interpreter runs a reduction the compiler
    dropped), the innermost frames in Triton's own library (tl.max's body) left out, with the
    number of loops around it (`loops`): a reduction the compiler hoisted out of a loop (LICM:
    its operand does not change in the loop) meets once before the loop, not each time round
    it, and the interpreter's count of the loops around the call must agree
    (`interpreter_spin.reduction_barrier`). A site where any of these is not a cross-warp
    reduction is none."""
    for loops, type_text, axis, loc in reductions:
        site = kernel_site(loc)
        if not site:
            _REDUCTIONS_UNRECORDED.append(True)
            continue
        entry = (key, site)
        before = _REDUCTIONS.get(entry, loops)  # one call site, one op, unless a pass copied it
        meets = type(before) is int and before == loops and _crosses_warps(type_text, axis)
        _REDUCTIONS[entry] = loops if meets else False


_TENSOR = re.compile(r"tensor<((?:\d+x)+)[^,<>]+, (#ttg\.(?:blocked|slice)<.*>)>$")
_FIELD = re.compile(r"(sizePerThread|threadsPerWarp|warpsPerCTA) = \[([\d, ]+)\]")


def _crosses_warps(type_text: str, axis: int | None) -> bool:
    """Whether a reduction of a tensor of this printed type along `axis` has distinct data in
    more than one warp: its layout is blocked (or a slice of a blocked one) and the warps along
    the axis, less those that only hold copies of another's elements (a block smaller than the
    warps' tile), number more than one. Any other layout (an MMA result, a linear layout), or a
    type this grammar does not read: no (fails closed: no barrier credited)."""
    match = _TENSOR.match(type_text)
    if match is None or axis is None:
        return False
    shape = [int(d) for d in match.group(1).rstrip("x").split("x")]
    layout = match.group(2)
    dim = None
    if layout.startswith("#ttg.slice<"):
        sliced = re.match(r"#ttg\.slice<\{dim = (\d+), parent = (#ttg\.blocked<\{[^{}]*\}>)\}>$", layout)
        if sliced is None:
            return False
        dim, layout = int(sliced.group(1)), sliced.group(2)
    elif re.match(r"#ttg\.blocked<\{[^{}]*\}>$", layout) is None:
        return False
    fields = {name: [int(v) for v in values.split(",")] for name, values in _FIELD.findall(layout)}
    if len(fields) != 3 or not 0 <= axis < len(shape):
        return False
    along = axis if dim is None or axis < dim else axis + 1  # the parent's axis of a slice
    if any(len(v) != len(shape) + (dim is not None) for v in fields.values()):
        return False
    per_warp = fields["sizePerThread"][along] * fields["threadsPerWarp"][along]
    distinct = min(fields["warpsPerCTA"][along], -(-shape[axis] // per_warp))
    return distinct > 1


def scalar_atomic_used(site: tuple) -> bool:
    """Whether the scalar atomic at `site` ((file, line)s, innermost first: the atomic's, then
    the helper calls' that reached it), as compiled for every launch the front end checked,
    keeps a use of its old value (False where none was compiled there, and everywhere once
    an atomic could not be recorded)."""
    return not _UNRECORDED and _SCALAR_ATOMICS.get(site, False)


def reduction_barrier(key: tuple | None, site: tuple, loops: int) -> bool:
    """Whether the reduction or scan at `site` ((file, line, column)s, innermost first) of the
    launch whose specialization is `key` (`checked`) spreads its axis over more than one warp,
    where `loops` loops hold it, as compiled (False where nothing was compiled there, and
    everywhere once a reduction could not be recorded)."""
    if key is None or _REDUCTIONS_UNRECORDED:
        return False
    found = _REDUCTIONS.get((key, site), False)
    return type(found) is int and found == loops


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
    (OutOfResources and CompileTimeAssertionFailure make a config's time infinite). Any other
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
    except (KernelOutOfResources, CompileTimeAssertionFailure):
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
