"""The constants a Triton launch reads besides its arguments: launch data host Python made.

A kernel reads numbers no argument hands it: the constexpr globals and closure cells of its
module, its parameters' defaults, and all of those of every @triton.jit function it reaches,
whether it calls one by name or is handed one (`ACT=_pick`, a constexpr argument or default:
red team rt84 handed rt74's 96 computed sigmoid globals in through a helper passed as
`PICK=_pick`, which the walk of names never reached: ok under strict at 1.00). `launch_numbers`
gives them to the provenance watch with the launch's own data (`launch_args.launch_data`).

Numbers the author typed are the kernel's own (honest rounds s56m, s57d: erf and tanh
coefficient sets as constexpr globals, tuples and defaults), up to `TYPED_NUMBERS` floats; past
that they are a table of a function's values and count again. The cap is over what the
source types, wherever it sits: a constant equal to a float literal of its file, and the float
literals of the kernel bodies themselves (rt84: s57r's 256 sigmoid values as a tuple a kernel
body binds were read by no walk of globals); and over the whole file, not one kernel (rt84:
two kernels of 128 typed values each were each under the cap)."""
from __future__ import annotations

from evaluator import launch_args
from evaluator.launch_args import launch_data

TYPED_NUMBERS = 128
"""Most distinct source-typed floats the kernels of one file read as constants without their counting
(`_Typed`, their bodies' literals too): honest coefficient sets reach 67 (s57d_27's erf and
tanh); past this it is a table of a function's values (session 57 review: rt78's 256 sigmoid
values typed as a default; rt84: the same in a kernel body, or in two kernels of 128)."""

_TYPED = object()  # `_Typed.drop`'s answer for a constant all of whose numbers the source types
_CONSTANTS: dict[tuple, tuple] = {}  # (kernel, handed functions) ids -> (objects, raw, kept, files)
_FILE_TYPED: dict[str, set] = {}  # source file -> the distinct typed floats its launched kernels read


def _device_functions() -> frozenset:
    if not launch_args._TENSORS:
        launch_args._kinds()
    return launch_args._DEVICE_FUNCTIONS


def handed_functions(args: tuple, kwargs: dict) -> tuple:
    """The @triton.jit functions a launch hands as arguments (`ACT=relu`: a constexpr the
    kernel calls)."""
    kinds = _device_functions()
    return tuple(v for v in (*args, *kwargs.values()) if type(v) in kinds)


def kernel_constants(kernel: object, handed: tuple = ()) -> tuple:
    """The constants `kernel`, the @triton.jit functions it reaches and those it is `handed`
    read from their modules' globals or closures (`tl.constexpr` numbers and tuples) and their
    parameters' defaults, as one tuple for `launch_data`: data host Python made at import (red
    team rt74: 96 of host Python's sigmoid values as constexpr globals `S00 =
    tl.constexpr(_s(0))`, counted nowhere: ok under strict at 1.00). The floats the source
    types are left out while the file's typed floats stay within TYPED_NUMBERS (module doc);
    past it every constant counts, and every float literal of the bodies with them."""
    key = (id(kernel), *map(id, handed))
    found = _CONSTANTS.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], (kernel, *handed))):
        seen: set = set()
        entries = [e for fn in (kernel, *handed) for e in _constants(fn, seen)]
        for _, _, typed, filename in entries:
            _FILE_TYPED.setdefault(filename, set()).update(map(abs, typed))
        found = _CONSTANTS[key] = ((kernel, *handed), tuple(e[0] for e in entries),
                                   tuple(e[1] for e in entries if e[1] is not _TYPED), {e[3] for e in entries})
    _, raw, kept, files = found
    if any(len(_FILE_TYPED.get(f, ())) > TYPED_NUMBERS for f in files):
        return raw  # a table, not coefficients
    return kept


def launch_sequences(kernel: object, args: tuple, kwargs: dict) -> list:
    """The float sequences a launch hands, in order (`host_numbers.launch_order`): each tuple
    argument's floats, and every constant its kernel reads (`kernel_constants`, typed or not:
    a kernel body's literals, a constexpr tuple global or default)."""
    handed = handed_functions(args, kwargs)
    kernel_constants(kernel, handed)
    raw = _CONSTANTS[(id(kernel), *map(id, handed))][1]
    items = (*args, *kwargs.values(), *raw)
    return [f for f in map(_float_items, items) if len(f) > 2]


def launch_numbers(kernel: object, args: tuple, kwargs: dict) -> list:
    """`launch_data` of a launch's arguments and of its kernel's constants (`kernel_constants`,
    the device functions it is handed among them)."""
    return launch_data((*args, *kwargs.values(), kernel_constants(kernel, handed_functions(args, kwargs))))


def runtime_floats(kernel: object, args: tuple, kwargs: dict) -> tuple[list, tuple, dict]:
    """(the Python floats a launch hands to parameters that are not constexpr, the arguments
    and keyword arguments with those left out): Triton types such a float float32
    (`host_numbers.launch_computed`); an autotuner's or heuristics' kernel is read through to
    the JITFunction (or the interpreter's function) it wraps."""
    import types

    fn, depth = kernel, 0
    while hasattr(fn, "fn") and not isinstance(fn.fn, types.FunctionType) and depth < 8:
        fn, depth = fn.fn, depth + 1
    params = getattr(fn, "params", None)
    names = [getattr(p, "name", None) for p in params] if isinstance(params, list) else getattr(fn, "arg_names", None)
    if not isinstance(names, list):
        return [], args, kwargs
    runtime = set(names) - launch_args._constexpr_names(fn)
    names = names[:len(args)]
    floats = [v for n, v in zip(names, args) if type(v) is float and n in runtime]
    floats += [v for n, v in kwargs.items() if type(v) is float and n in runtime]
    args = tuple(None if i < len(names) and type(v) is float and names[i] in runtime else v for i, v in enumerate(args))
    kwargs = {n: (None if type(v) is float and n in runtime else v) for n, v in kwargs.items()}
    return floats, args, kwargs


def _code_floats(code: object, depth: int = 0) -> list:
    """The float literals of a code object (constant tuples and nested code objects too), and
    the ints of its constant tuples (red team s59c: rt84's 256 sigmoid values typed as 15-bit
    fixed-point int literals of a kernel body's tuple, scaled by 2**-15, were under no cap: ok
    under strict at 1.0002; a lone int literal is a block size, a shift or a mask, not a table)."""
    out: list = []
    stack = [(c, False) for c in getattr(code, "co_consts", ())]
    while stack:
        c, inner = stack.pop()
        if type(c) is float or (inner and type(c) is int):
            out.append(c)
        elif type(c) in (tuple, frozenset):
            stack.extend((v, True) for v in c)
        elif hasattr(c, "co_consts") and depth < 8:
            out.extend(_code_floats(c, depth + 1))
    return out


def _constants(fn: object, seen: set) -> list:
    """(constant, what of it counts, the floats of it the source types, source file) of `fn`
    and of the device functions it reaches: its body's float literals (all typed), its
    parameters' defaults (red team rt78: a constexpr tuple of 256 sigmoid values as a kernel's
    or a helper's default, named nowhere in a body; a device function as a default is a helper
    it calls: rt84), the constexpr globals and closure cells it names."""
    fn = getattr(fn, "fn", fn)  # a JITFunction's Python function
    code = getattr(fn, "__code__", None)
    if code is None or id(fn) in seen:
        return []
    seen.add(id(fn))
    kinds = _device_functions()
    filename = code.co_filename
    body = tuple(_code_floats(code))
    found: list = [(body, _TYPED, body, filename)] if body else []
    typed = _Typed(filename)
    defaults = (*(getattr(fn, "__defaults__", None) or ()), *(getattr(fn, "__kwdefaults__", None) or {}).values())
    names = getattr(fn, "__globals__", {})
    cells = [c.cell_contents for c in getattr(fn, "__closure__", None) or () if _full(c)]
    for value in (*defaults, *(names.get(n) for n in _names(code)), *cells):
        if type(value) in kinds:
            found.extend(_constants(value, seen))
        elif type(value) is launch_args._CONSTEXPR or any(value is d for d in defaults):
            kept = typed.drop(value)
            found.append((value, kept, _typed_floats(value, kept), filename))
    return found


def _typed_floats(value: object, kept: object) -> tuple:
    """The floats of `value` its source types (those `_Typed.drop` left out)."""
    everything = _float_items(value)
    if kept is _TYPED:
        return everything
    rest = list(_float_items(kept))
    out = []
    for v in everything:
        if v in rest:
            rest.remove(v)
        else:
            out.append(v)
    return tuple(out)


def _float_items(value: object) -> tuple:  # constexpr-wrapped or not, one tuple level deep
    inner = value.value if type(value) is launch_args._CONSTEXPR else value
    items = inner if type(inner) is tuple else (inner,)
    return tuple(v for v in items if type(v) is float)


class _Typed:
    """The number literals of one function's source file (`_source_literals`), read once and
    only where a float needs them: a float constant equal to one of them is the author's typed
    number, as one in the kernel's body is, however it is held. A constexpr global
    (`P1 = tl.constexpr(0.254829592)`), a tuple of them (`PP = tl.constexpr((1.28e-01, ...))`,
    fdlibm's coefficient sets as the Rust and musl ports lay them out) and a parameter's default
    (`c2: tl.constexpr = 0.2402265`) are all typed: honest round s57d, a GELU kernel for both
    of PyTorch's modes with fdlibm's erf (53 numbers in eight tuples) and Eigen's tanh (11)
    was host_compute at 67 where the same numbers as float globals counted none. Values host
    Python computed (rt74's globals, rt78's tuple defaults: math.exp at import) are in no
    literal and still count, each; ints and strings are counted as before."""

    def __init__(self, filename: str):
        self.filename = filename
        self.literals: frozenset | None = None

    def _is_typed(self, v: object) -> bool:
        if type(v) is not float:
            return False
        if self.literals is None:
            self.literals = _source_literals(self.filename)
        return abs(v) in self.literals

    def drop(self, value: object) -> object:
        """`value` less the floats the source types: _TYPED where nothing is left."""
        inner = value.value if type(value) is launch_args._CONSTEXPR else value
        if self._is_typed(inner):
            return _TYPED
        if type(inner) is tuple and any(type(v) is float for v in inner):
            kept = tuple(v for v in inner if not self._is_typed(v))
            return kept if kept else _TYPED
        return value


def _source_literals(filename: str) -> frozenset:
    """The float values of the number literals in a source file (`kernel_constants`): a
    constexpr global that is one of them is the author's literal, as a number typed in the
    kernel's body is, not data host Python computed (honest round s56m: a libm-style port of
    erf, 64 polynomial coefficients typed as constexpr globals, was host_compute past
    max_host_made; rt74's 96 globals were computed at import and are none)."""
    import io
    import linecache
    import tokenize

    found = _LITERALS.get(filename)
    if found is None:
        numbers = []
        try:
            numbers = [tok.string for tok in tokenize.generate_tokens(
                io.StringIO("".join(linecache.getlines(filename))).readline) if tok.type == tokenize.NUMBER]
        except (tokenize.TokenError, SyntaxError):
            numbers = []
        # float syntax only (0.5, 1e-6, 2.0): an int literal (a block size, a shift, 7) is no
        # coefficient, and integer-valued floats of a computed table (codes 0.0 .. 255.0 held as
        # floats) would meet one in almost any file
        found = _LITERALS[filename] = frozenset(v for v in map(_number, filter(_float_syntax, numbers))
                                                if v is not None)
    return found


def _float_syntax(text: str) -> bool:
    low = text.lower()
    return not low.startswith(("0x", "0o", "0b")) and not low.endswith("j") and ("." in low or "e" in low)


_LITERALS: dict[str, frozenset] = {}  # file name -> its number literals' values (`_source_literals`)


def _number(text: str) -> float | None:
    """A number literal's value as a float (None: imaginary, or too large for one)."""
    try:
        return abs(float(text))
    except ValueError:  # 0x10, 0o7, 0b1, 1j
        try:
            return abs(float(int(text, 0)))
        except (ValueError, OverflowError):
            return None


def _full(cell: object) -> bool:
    try:
        return cell.cell_contents is not cell
    except ValueError:  # an empty cell
        return False


def _names(code: object) -> set:
    """The global names a code object and the ones nested in it use."""
    out = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            out |= _names(c)
    return out


