"""What a Triton launch may be given, and the data in it (evaluator.launch_hook's checks).

`check_arguments` admits plain data only: exact tensor types, numbers, strings, dtypes, tuples
of them and host TensorDescriptors built as `from_tensor` builds them (`_plain`); keywords are
the kernel's parameters or Triton's tuning options. `launch_data` walks the same shapes for
the Python numbers, strings and flag runs a kernel is handed (the provenance watch counts
them), and `geometry` for where the tensors lie (a launch whose tensors moved while it ran is
refused: `_unmoved`).
"""
from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager


class KernelArgumentError(TypeError):
    """A launch argument that is not plain data (see check_arguments)."""


_SCALARS: frozenset = frozenset()  # exact types that are plain data (filled by _kinds())
_TENSORS: frozenset = frozenset()
_DESCRIPTOR: type | None = None
_CONSTEXPR: type | None = None
_TUPLES: frozenset = frozenset({tuple})
_TORCH_DTYPE: type = type  # torch.dtype (filled by _kinds())
# a @triton.jit function (JITFunction; InterpretedFunction under the interpreter): a constexpr
# may be one, a device function the launched kernel calls (Triton specialises on it). Exact
# types: the file cannot make one but by decorating a def (the static checks)
_DEVICE_FUNCTIONS: frozenset = frozenset()


def _kinds() -> None:
    """Fill the type tables once (torch and triton are imported by then)."""
    global _SCALARS, _TENSORS, _DESCRIPTOR, _CONSTEXPR, _TUPLES, _TORCH_DTYPE, _DEVICE_FUNCTIONS
    import torch
    import triton.language as tl
    from triton.runtime.jit import JITFunction

    try:
        from triton.runtime.interpreter import InterpretedFunction
    except ImportError:  # deliberate: a Triton build without the interpreter
        InterpretedFunction = JITFunction
    _DEVICE_FUNCTIONS = frozenset({JITFunction, InterpretedFunction})

    _CONSTEXPR = tl.constexpr
    _TORCH_DTYPE = torch.dtype
    _TUPLES = frozenset({tuple, torch.Size})  # torch.Size: a tuple of ints (x.shape as an argument)
    from evaluator.interpreter_scope import Specialized  # an int the GPU launcher made a constexpr

    _SCALARS = frozenset({bool, int, float, str, type(None), torch.dtype, tl.constexpr, Specialized,
                          *(type(d) for d in (tl.float32, tl.pointer_type(tl.float32)))})
    _TENSORS = frozenset({torch.Tensor, torch.nn.Parameter})
    try:
        from triton.tools.tensor_descriptor import TensorDescriptor
    except ImportError:  # deliberate: a Triton without host-side descriptors
        TensorDescriptor = None
    _DESCRIPTOR = TensorDescriptor


# Host code of the candidate's a launch runs (a callable grid, heuristics, an autotuner's
# prune, perf_model and pre_hook) sees a device function handed at a constexpr as a token:
# text naming it, never the object. Through the object any host code reaches the function's
# globals and Triton's caches (red team s40 round 12: a grid called
# meta["ACT"].rewritten_fn.update(...), and what ran was not what device_compile had checked).
# The kernel's own run (`unveiled`) swaps the token back: the one place the object goes on.
_TOKENS: dict[str, object] = {}  # token -> device function
_TOKEN_OF: dict[int, str] = {}  # id(device function) -> its token
_NONCE = os.urandom(6).hex()


_IN_FLIGHT: list[set[str]] = []  # per launch entry running (Autotuner/Heuristics.run): tokens it veiled


def veiled(value: object, depth: int = 0) -> object:
    """`value` with every device function in it (inside tuples and lists too) as its token."""
    if not _TENSORS:
        _kinds()
    kind = type(value)
    if kind in _DEVICE_FUNCTIONS:
        token = _TOKEN_OF.get(id(value))
        if token is None or _TOKENS.get(token) is not value:
            name = getattr(getattr(value, "fn", None), "__name__", "?")
            token = f"<@triton.jit {name} {_NONCE}.{len(_TOKENS)}>"
            _TOKENS[token], _TOKEN_OF[id(value)] = value, token
        return token
    if kind in (tuple, list) and depth < 4:
        return kind(veiled(v, depth + 1) for v in value)
    return value


@contextmanager
def veiling(args: tuple, kwargs: dict) -> Iterator[tuple[tuple, dict]]:
    """A launch entry's arguments with each device function as its token, for the heuristics,
    prune, perf_model and pre_hooks it runs; while it runs, the kernel's own run below it swaps
    those tokens back (`unveiled`), and only those: a token string kept from another launch
    and handed on is text (red team s41 round 13)."""
    args, kwargs = tuple(veiled(a) for a in args), {k: veiled(v) for k, v in kwargs.items()}
    _IN_FLIGHT.append({v for v in (*args, *kwargs.values()) if type(v) is str and v in _TOKENS})
    try:
        yield args, kwargs
    finally:
        _IN_FLIGHT.pop()


def unveiled(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """A kernel's own run: a token its launch entry veiled is its device function again (and
    then admitted only where a device function may be: `check_arguments`)."""
    live = _IN_FLIGHT[-1] if _IN_FLIGHT else ()

    def back(v: object) -> object:
        return _TOKENS[v] if type(v) is str and v in live else v
    return tuple(map(back, args)), {k: back(v) for k, v in kwargs.items()}


def configured_functions(entry: object) -> list[str]:
    """Names of an autotuner's config values that are device functions: a Config's kwargs reach
    its pre_hook, perf_model and prune unveiled (red team s41 round 13), so none may be one."""
    if not _TENSORS:
        _kinds()
    return sorted(f"{k}" for c in getattr(entry, "configs", None) or ()
                  for k, v in (getattr(c, "kwargs", None) or {}).items() if type(v) in _DEVICE_FUNCTIONS)


def _plain(value: object, depth: int = 0) -> bool:
    """Tensors, numbers, strings, dtypes, constexprs and tuples of them: values whose
    meaning to Triton's launcher the harness knows. Exact types: an object of the
    candidate's own class (even an IntEnum) that answers `data_ptr()` would be taken for
    a pointer to any address. Tuples, never lists: the interpreter hands a kernel a list
    itself, and a kernel body that appended its values' text to it was a channel to the
    host no aten op saw (the host computed a GEMM from it, ok under strict)."""
    kind = type(value)
    if kind is _CONSTEXPR:  # what it wraps must be plain too (a wrapped list was a host channel)
        return depth < 4 and _plain(getattr(value, "value", None), depth + 1)
    if kind in _TENSORS or kind in _SCALARS:
        return True
    if kind in _TUPLES and depth < 4:
        return all(_plain(v, depth + 1) for v in value)
    if _DESCRIPTOR is not None and kind is _DESCRIPTOR:
        # the launcher reads these into new values (the interpreter's descriptor holds none of
        # these objects), so a list or torch.Size is as good as a tuple here: from_tensor makes
        # both (honest round, session 19: every TensorDescriptor.from_tensor launch was refused)
        return type(value.base) in _TENSORS and all(
            type(f) in (*_TUPLES, list) and all(type(v) is int for v in f)
            for f in (getattr(value, n, ()) for n in ("shape", "strides", "block_shape")))
    return False


def launch_data(items: tuple, depth: int = 0) -> list:
    """The data among a launch's arguments, wherever `_plain` accepts it (one walk beside
    the check it mirrors): inside tuples (torch.Size too) and tl.constexpr wrappers (a tuple
    of 4096 constexpr floats carried a host GEMM back uncounted: red team D, session 18), a
    host TensorDescriptor's shape, strides and block shape, a pointer type's address space
    (the walk once stopped a level short of what the launcher takes, and descriptors' shapes
    and pointer types' address spaces carried a host GEMM out: red team A, session 19):
    Python ints and floats, and as ("text", n) the values a string or a run of booleans can
    hold (a float's worth per 4 characters or 32 flags), or a tuple's ints past TUPLE_INTS.
    For the provenance watch's counts."""
    import triton.language as tl

    if not _TENSORS:
        _kinds()
    out: list = []
    flags = dtypes = 0
    for v in items:
        if type(v) is _CONSTEXPR:
            v = v.value
        if type(v) in (int, float):
            out.append(v)
        elif type(v) is bool:
            flags += 1
        elif isinstance(v, (tl.dtype, _TORCH_DTYPE)) and not isinstance(v, tl.pointer_type):
            dtypes += 1
        elif type(v) in (str, bytes):
            out.append(("text", v, -(-len(v) // 4)))
        elif depth >= _DATA_DEPTH:
            continue
        elif type(v) in _TUPLES:
            out.extend(_int_run(launch_data(v, depth + 1)))
        elif isinstance(v, tl.pointer_type):
            out.extend(launch_data((v.address_space, bool(getattr(v, "const", False)), v.element_ty), depth + 1))
        elif _DESCRIPTOR is not None and type(v) is _DESCRIPTOR:
            out.extend(launch_data(tuple(tuple(getattr(v, f, ())) for f in ("shape", "strides", "block_shape")),
                                   depth + 1))
    if flags > 1:  # one flag is a switch; many are bits
        out.append(("text", tuple(v for v in items if type(v) is bool), -(-flags // 32)))
    if dtypes > 2:  # a dtype or two are a kernel's types; a run of them is ~4 bits each (red
        # team A, session 20: a tuple of dtype constexprs, a write channel the walk skipped)
        out.append(("text", tuple(str(getattr(v, "value", v)) for v in items
                                  if isinstance(getattr(v, "value", v), (tl.dtype, _TORCH_DTYPE))), -(-dtypes // 8)))
    return out


_DATA_DEPTH = 16  # deeper than anything _plain lets through
# ints one tuple argument may hold and be sizes: a shape, strides, a descriptor's block shape.
# More are a run of data, counted as a string's are (red team rt74: 256 fixed-point sigmoid
# values host Python computed, handed as one tuple of ints that a kernel stored as a table,
# ok under strict at 1.00 while distinct ints counted only past judge.LAUNCH_INTS 4096)
TUPLE_INTS = 16


def _int_run(data: list) -> list:
    """One tuple's data (`launch_data`), its ints a counted run where they are more than
    TUPLE_INTS."""
    ints = [v for v in data if type(v) is int]
    if len(ints) <= TUPLE_INTS:
        return data
    return [v for v in data if type(v) is not int] + [("text", tuple(ints), len(ints))]


def count_text(texts: dict, key: object, n: int) -> None:
    """Count one launch's text, flag run or int run (`launch_data`'s ("text", key, n)) into
    `texts` (key -> values it holds). An int run like one of the last RECENT_RUNS before it
    (as long, as many of its places the same) costs the places that differ: a kernel launched
    per image or chunk with one geometry tuple whose index changes is one run and a step per
    launch (honest round s56m: a depthwise conv launched per image with a 20-int tuple cost 20
    per image, host_compute at 4 images); a run of new values still costs each (rt74's 256
    fixed-point ints)."""
    if key in texts:
        return
    if type(key) is tuple and len(key) > TUPLE_INTS and all(type(v) is int for v in key):
        for seen in itertools.islice(reversed(texts), RECENT_RUNS):
            if type(seen) is tuple and len(seen) == len(key) and all(type(v) is int for v in seen):
                n = min(n, max(1, sum(a != b for a, b in zip(seen, key))))
    texts[key] = n


RECENT_RUNS = 8  # earlier runs a new int run is compared with (`count_text`)


def geometry(items: tuple, depth: int = 0) -> tuple:
    """Where a launch's tensors lie, as the kernel's pointers are made from them: each
    tensor's storage address, offset, sizes, strides and dtype, and a host descriptor's shape,
    strides and block shape, wherever `_plain` lets them in."""
    if not _TENSORS:
        _kinds()
    out: list = []
    for v in items:
        if type(v) is _CONSTEXPR:
            v = v.value
        if type(v) in _TENSORS:
            try:
                out.append((v.untyped_storage().data_ptr(), v.storage_offset(), tuple(v.shape),
                            v.stride(), v.dtype))
            except (RuntimeError, NotImplementedError):  # no storage: nothing to point at
                out.append(("storage-less", tuple(v.shape)))
        elif depth >= _DATA_DEPTH:
            continue
        elif type(v) in _TUPLES or type(v) is list:
            out.append(geometry(tuple(v), depth + 1))
        elif _DESCRIPTOR is not None and type(v) is _DESCRIPTOR:
            out.append((geometry((v.base,), depth + 1),
                        *(tuple(getattr(v, f, ())) for f in ("shape", "strides", "block_shape"))))
    return tuple(out)


def _unmoved(args: tuple, kwargs: dict, where: tuple) -> None:
    """Raise unless the launch's tensors still lie where they did when it was made: a grid
    function (or anything else run inside the launch) that moves one (`set_`, `.data =`,
    `resize_`) after Triton took its pointer left the kernel reading memory nobody handed it,
    PyTorch's result among it, while the watch saw the decoy the tensor now holds (red team
    A, session 20: torch's softmax and GEMM copied out by kernels handed unmarked decoys)."""
    from evaluator import interpreter_guard

    if geometry((*args, *kwargs.values())) != where:
        raise interpreter_guard.KernelLaunchError(
            "a launch argument was moved to other memory (set_, .data =, resize_) while the launch ran "
            "(in its grid function): a grid function only computes the grid")


# Keywords a launch may give besides the kernel's parameters: Triton's tuning options, as
# plain numbers or flags. Others reach the compiler (ir_override, extern_libs, ptx_options) or,
# unchecked, a heuristic's or pre-hook's host code (red team D, session 18: a kernel body
# passed its loaded block to a heuristics lambda as `blk=`).
LAUNCH_OPTIONS = frozenset({"grid", "warmup", "num_warps", "num_stages", "num_ctas", "maxnreg",
                            "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl", "debug",
                            "waves_per_eu", "matrix_instr_nonkdim", "kpack", "num_buffers_warp_spec",
                            "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer"})


HEURISTIC_OPTIONS = frozenset({"num_warps", "num_stages", "num_ctas", "maxnreg"})


def _host_tensors():
    from evaluator.candidate_env import HOST_TENSORS  # empty but in a CPU candidate child

    return HOST_TENSORS


def check_arguments(kernel: object, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Refuse a launch whose kernel arguments are not plain data (`_plain`), or that gives a
    keyword that is neither a parameter of the kernel nor a plain LAUNCH_OPTIONS value. Returns
    the arguments to launch with: an enum member of a string or integer enum as its value
    (`enum_values`)."""
    if not _TENSORS:
        _kinds()
    args, kwargs = enum_values(args), dict(zip(kwargs, enum_values(tuple(kwargs.values()))))
    names = getattr(kernel, "arg_names", None) or ()
    for name, value in kwargs.items():
        if name not in names and name != "grid" and not (name in LAUNCH_OPTIONS and _scalar(value)):
            raise KernelArgumentError(
                f"Triton kernel {getattr(getattr(kernel, 'fn', kernel), '__name__', '?')!r} was launched "
                f"with the keyword {name!r}, which is neither its parameter nor a launch option "
                f"({', '.join(sorted(LAUNCH_OPTIONS - {'grid', 'warmup'}))})")
        if name == "launch_cooperative_grid" and value and name not in names:
            # every program must be resident at once on the GPU, at the problem's GPU grid (red
            # team s44: 32768 programs where an H200 holds about 2000); the CPU cannot judge it
            raise KernelArgumentError(
                "launch_cooperative_grid=True: a cooperative launch needs its whole grid resident on "
                "the GPU at once, at the problem's GPU sizes, which the CPU check cannot judge; "
                "synchronise through separate launches instead")
    constexprs = _constexpr_names(kernel)
    for name, value in (*zip(names, args), *((n, v) for n, v in kwargs.items() if n in names)):
        if name in constexprs and type(value) in _DEVICE_FUNCTIONS:
            continue  # `ACTIVATION=relu`: code the kernel's compiler inlines (static_kernel_values)
        if not _plain(value):
            _refuse(kernel, name, value)
        if value in _host_tensors():
            raise KernelArgumentError(
                f"Triton kernel {getattr(getattr(kernel, 'fn', kernel), '__name__', '?')!r} was handed `{name}`, "
                "a tensor that lives on the host on the GPU (made with no device in forward, or on the CPU, "
                "or moved there): Triton's launcher refuses it there. Make it on the inputs' device "
                "(`device=x.device`, `torch.empty_like(x)`)")
        if name in constexprs and not _scalar(value):
            # the interpreter hands a constexpr over as the object itself: a tensor there
            # would run torch inside the "kernel"
            raise KernelArgumentError(
                f"constexpr argument {name!r} of Triton kernel "
                f"{getattr(getattr(kernel, 'fn', kernel), '__name__', '?')!r} is a "
                f"{type(value).__name__}: a constexpr takes a number, string, dtype or None")
    return args, kwargs


def enum_values(items: tuple) -> tuple:
    """Each member of a `StrEnum`/`IntEnum` (or any enum whose value is an exact str or int) as
    that value, read from the member's own storage: a plain str or int the launcher knows
    (`REDUCTION=self.reduction`, honest round s38). The member itself, an object of the file's
    class, is never handed on. A member whose class defines `data_ptr` (read statically, nothing
    of the class runs) is left as it is, to be refused as what it poses as (`_plain`): a pointer."""
    import enum
    import inspect

    out = []
    for v in items:
        raw = vars(v).get("_value_") if isinstance(v, enum.Enum) else None
        pointer = raw is not None and inspect.getattr_static(type(v), "data_ptr", None) is not None
        out.append(raw if type(raw) in (str, int) and not pointer else v)
    return tuple(out)


def plain_constant(value: object) -> bool:
    """A number, string, dtype, None or constexpr, or a tuple of them (what a constexpr may be)."""
    if not _TENSORS:
        _kinds()
    return _scalar(value)


def _scalar(value: object, depth: int = 0) -> bool:
    kind = type(value)
    if kind is _CONSTEXPR:
        return depth < 4 and _scalar(getattr(value, "value", None), depth + 1)
    if kind is tuple and depth < 4:
        return all(_scalar(v, depth + 1) for v in value)
    return kind in _SCALARS


_CONSTEXPRS: dict[int, tuple[object, frozenset[str]]] = {}  # id -> (kernel kept alive, names)


def _constexpr_names(kernel: object) -> frozenset[str]:
    """The kernel's tl.constexpr parameters, read as Triton reads them (once per kernel)."""
    known = _CONSTEXPRS.get(id(kernel))
    if known is not None and known[0] is kernel:
        return known[1]
    names = _read_constexprs(kernel)
    _CONSTEXPRS[id(kernel)] = (kernel, names)
    return names


def _read_constexprs(kernel: object) -> frozenset[str]:
    params = getattr(kernel, "params", None)
    if params is not None:  # JITFunction
        return frozenset(p.name for p in params if getattr(p, "is_constexpr", False))
    fn = getattr(kernel, "fn", None)
    if fn is None:
        return frozenset()
    import inspect

    from triton.runtime.jit import _normalize_ty
    try:
        notes = inspect.get_annotations(fn)
    except (TypeError, ValueError):
        return frozenset(getattr(kernel, "arg_names", None) or ())  # unreadable: all of them
    # and every parameter annotated by a text ending in `constexpr`: the interpreter runs a
    # rewritten copy whose annotations are text, where `X: constexpr` is one whatever the
    # name is bound to (`constexpr = int` let a tensor into the body: red team, session 14)
    return frozenset(n for n, ty in notes.items() if _normalize_ty(ty) == "constexpr") | _text_constexprs(fn)


def _text_constexprs(fn: object) -> frozenset[str]:
    import ast
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return frozenset(getattr(fn, "__code__", None) and fn.__code__.co_varnames or ())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                if a.annotation is not None and ast.unparse(a.annotation).split(".")[-1] == "constexpr":
                    found.add(a.arg)
            break
    return frozenset(found)


def _refuse(kernel: object, name: str, value: object) -> None:
    fn = getattr(kernel, "fn", kernel)
    raise KernelArgumentError(
        f"argument {name!r} of Triton kernel {getattr(fn, '__name__', '?')!r} is a "
        f"{type(value).__name__}: pass tensors, numbers, strings, dtypes or tuples of them")


def launch_ints(args: tuple, kwargs: dict) -> dict:
    """A launch's ints by place (argument, then place inside it); an int the interpreter
    specialises (1, as interpreter_scope.Specialized) is one too."""
    ints = {}
    for name, item in (*enumerate(args), *kwargs.items()):
        scalar = isinstance(item, int) and not isinstance(item, bool)
        for place, v in enumerate([int(item)] if scalar else [v for v in launch_data((item,)) if type(v) is int]):
            ints[(name, place)] = v
    return ints
