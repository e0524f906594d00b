"""Python's own behaviour, in a candidate child, as the GPU image's Python has it.

The CPU check runs this machine's Python (3.11); the GPU image runs 3.12 (evaluator/h200_names.json
records its version). What a candidate's code can see of the difference was a switch between
an arm the CPU checked and one only the GPU runs. The names one version has and the other lacks
are the static checks' (evaluator.gpu_names: `int.is_integer`, `itertools.batched`); what is left
is behaviour of a name both have, and of the builtins the allowlist lets a candidate use one
changed: sum() of floats, which 3.12 adds with Neumaier's compensation
(`sum([1e16, 1.0, -1e16])` is 0.0 on 3.11 and 1.0 on 3.12: red team s46). In a candidate child
on an older Python, the candidate's own calls of sum() add as 3.12's does; tests/unit/evaluator/
test_python_image.py holds it to the image's recorded answers.

Unicode. 3.12 has Unicode 15.0's database, 3.11 Unicode 14.0's: every str method and conversion
that reads a character's properties (isalpha, isidentifier, isprintable, islower, isdecimal,
int() and float() of its digits, repr's escaping) answers otherwise for the characters 15.0
added (4,482 of its 4,489 differ in some test) and for five 14.0 had already (U+10FC,
U+A7F2..U+A7F4, U+AB69: lowercase in 15.0).
No str holding one may reach a candidate's code (`unknown_character`): a literal holding one is
refused by the static checks (evaluator.static_unicode), as are the other ways from numbers or
bytes to a str (bytes, a format spec of type c, str.translate); in a candidate child on an older
Python, chr() and format() refuse to make one, and so does %-formatting, which the candidate's
module and its interpreted kernels are compiled to check (`checked_formatting`). The refusal,
UnknownCharacter, is raised again by every except clause of the file (`resource_errors`), so no
handler can read it as a switch.
"""
from __future__ import annotations

import ast
import builtins
import math
import operator
import os
import sys
import unicodedata
from typing import Any

_LONG = 1 << 63  # C long's range: 3.12's float loop adds an int item in it as a C double


def sum312(iterable, /, start=0):
    """builtins.sum as CPython 3.12's builtin_sum_impl computes it: a C long loop while the sum
    and each item stay in C long's range, then a float loop, compensated (Neumaier; an int item
    in C long's range added uncompensated as a double), where the sum is a float by then, and
    anything else added with `+`."""
    _REAL_SUM((), start)  # the same refusals of a str/bytes/bytearray start, with the same text
    items = iter(iterable)
    result = start
    if type(result) is int and -_LONG <= result < _LONG:
        for item in items:
            if (type(item) is int or type(item) is bool) and -_LONG <= item < _LONG and (
                    -_LONG <= result + item < _LONG):
                result = result + item
                continue
            result = result + item  # past C long's range, or no int: the general loop
            break
        else:
            return result
    if type(result) is float:
        total, c = result, 0.0
        for item in items:
            if type(item) is float:
                t = total + item
                if abs(total) >= abs(item):
                    c += (total - t) + item
                else:
                    c += (item - t) + total
                total = t
                continue
            if isinstance(item, int) and -_LONG <= item < _LONG:
                total += float(item)
                continue
            if c and math.isfinite(c):
                total += c
            result = total + item
            break
        else:
            if c and math.isfinite(c):
                total += c
            return total
    for item in items:
        result = result + item
    return result


class _Builtin:
    """What a stand-in for a builtin function reads as: its `__name__`, `__qualname__` (a class
    body's `__qualname__` names the class, so an instance finds none without this: `sum.__qualname__`
    raised AttributeError here), `__module__`, repr, and its type's name (set below)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name == "__qualname__":
            return type(self).__dict__["__name__"]
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"<built-in function {type(self).__dict__['__name__']}>"


class _BuiltinSum(_Builtin):
    """sum, answering as 3.12's to the candidate's own code and as this Python's to everything
    else; it reads as the builtin (`repr`, `__name__`, and its type's name: `type(sum).__name__`
    read "_BuiltinSum" here and "builtin_function_or_method" on the GPU, session 48)."""

    __slots__ = ()
    __name__ = "sum"
    __module__ = "builtins"

    def __call__(self, iterable, /, start=0):
        from evaluator.candidate_env import candidate_frame

        if candidate_frame(1):
            return sum312(iterable, start)
        return _REAL_SUM(iterable, start)


_REAL_SUM = builtins.sum


# ---------------------------------------------------------------------- Unicode
# the image's Python (3.12.x, evaluator/h200_names.json's versions) and the Unicode database
# every 3.12 has
IMAGE_PYTHON = (3, 12)
IMAGE_UNICODE = "15.0.0"
OLDER_THAN_THE_IMAGE = sys.version_info[:2] < IMAGE_PYTHON
# characters Unicode 14.0 already assigned whose properties Python's str methods read otherwise
# under 15.0: Other_Lowercase added (str.islower), tests/unit/evaluator/test_python_image.py
# holds it to a real 3.12 where this machine has one
CHANGED_IN_THE_IMAGE = frozenset(map(chr, (0x10FC, 0xA7F2, 0xA7F3, 0xA7F4, 0xAB69)))


def unknown_character(text: str) -> str | None:
    """The first character of `text` whose properties this Python's Unicode database and the
    GPU image's tell apart: one the database here does not assign (category Cn: on 3.11 every
    character Unicode 15.0 added) or one of CHANGED_IN_THE_IMAGE. None where there is none."""
    if text.isascii():
        return None
    for c in text:
        if c in CHANGED_IN_THE_IMAGE or (c > "\x7f" and unicodedata.category(c) == "Cn"):
            return c
    return None


def describe_character(c: str) -> str:
    return (f"U+{ord(c):04X}, a character whose properties this Python's Unicode database "
            f"({unicodedata.unidata_version}) and the GPU image's Python's ({IMAGE_UNICODE}) answer "
            "apart (str.isalpha, isidentifier, isprintable, islower, int() of digits, repr)")


class UnknownCharacter(Exception):
    """A str holding an `unknown_character` made in a candidate's code: raised where it was
    made, and raised again by every except clause of the candidate's file."""


def refuse_unknown(text: Any, how: str) -> Any:
    """`text`, or UnknownCharacter where it is a str holding an unknown character (or a Triton
    constexpr of one: `tl.constexpr("%c") % n` in a kernel body)."""
    value = getattr(text, "value", None) if type(text).__name__ == "constexpr" else text
    if isinstance(value, str) and not value.isascii():
        c = unknown_character(value)
        if c is not None:
            raise UnknownCharacter(f"{how} made {describe_character(c)}; the CPU check cannot "
                                   "answer for such a string as the GPU does: use other characters")
    return text


class _BuiltinChr(_Builtin):
    """chr, refusing to make an unknown character; it reads as the builtin."""

    __slots__ = ()
    __name__ = "chr"
    __module__ = "builtins"

    def __call__(self, i, /):
        return refuse_unknown(_REAL_CHR(i), "chr()")


class _BuiltinFormat(_Builtin):
    """format, refusing to make a str holding an unknown character (`format(n, "c")`); it reads
    as the builtin."""

    __slots__ = ()
    __name__ = "format"
    __module__ = "builtins"

    def __call__(self, value, format_spec="", /):
        return refuse_unknown(_REAL_FORMAT(value, format_spec), "format()")


_REAL_CHR, _REAL_FORMAT = builtins.chr, builtins.format
for _stand_in, _real in ((_BuiltinSum, _REAL_SUM), (_BuiltinChr, _REAL_CHR), (_BuiltinFormat, _REAL_FORMAT)):
    _stand_in.__doc__ = _real.__doc__
    # `type(sum).__name__` and `str(type(sum))`, which the static checks let a file read as text
    _stand_in.__name__ = _stand_in.__qualname__ = type(_real).__name__  # type: ignore[attr-defined]


# What `checked_formatting` compiles `a % b` and `a %= b` to: `__krl_image__.mod(a, b)`, ...
# The functions are compiled under a file name that reads as the candidate's (evaluator.
# candidate_env.candidate_frame: an op on a tensor they run is the candidate's own, as it was
# written), and are reached through a builtin no file can name (the static checks refuse a
# dunder name).
IMAGE_NAME = "__krl_image__"
_FORMATTING = """
def mod(a, b):
    return refuse(a % b, "%-formatting")


def imod(a, b):
    return refuse(imod_(a, b), "%-formatting")


def imod_attr(obj, name, b):
    value = refuse(imod_(getattr(obj, name), b), "%-formatting")
    setattr(obj, name, value)


def imod_item(obj, key, b):
    value = refuse(imod_(obj[key], b), "%-formatting")
    obj[key] = value
"""


class _Formatting:
    """The namespace `__krl_image__` names: mod, imod, imod_attr, imod_item and slice."""

    def __init__(self) -> None:
        namespace: dict[str, Any] = {"refuse": refuse_unknown, "imod_": operator.imod}
        exec(compile(_FORMATTING, f"<python_image>{os.sep}candidate.py", "exec"), namespace)  # noqa: S102
        self.mod, self.imod = namespace["mod"], namespace["imod"]
        self.imod_attr, self.imod_item = namespace["imod_attr"], namespace["imod_item"]
        self.slice = slice


class _CheckedFormatting(ast.NodeTransformer):
    """`a % b` as `__krl_image__.mod(a, b)`, and `a %= b` as the same through imod (by the
    target's kind), everywhere but in annotations (which `from __future__ import annotations`
    keeps as text). A name target is rebound as Python rebinds it; an attribute or item target's
    object and key are evaluated once, before the right side."""

    def _image(self, attr: str, node: ast.AST) -> ast.expr:
        return ast.copy_location(ast.Attribute(value=ast.copy_location(ast.Name(IMAGE_NAME, ast.Load()), node),
                                               attr=attr, ctx=ast.Load()), node)

    def _call(self, attr: str, args: list[ast.expr], node: ast.AST) -> ast.Call:
        return ast.copy_location(ast.Call(func=self._image(attr, node), args=args, keywords=[]), node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Mod):
            return self._call("mod", [node.left, node.right], node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Mod):
            return node
        target = node.target
        if isinstance(target, ast.Name):
            load = ast.copy_location(ast.Name(target.id, ast.Load()), target)
            return ast.copy_location(ast.Assign(targets=[target], value=self._call("imod", [load, node.value], node)),
                                     node)
        if isinstance(target, ast.Attribute):
            args = [target.value, ast.copy_location(ast.Constant(target.attr), target), node.value]
            return ast.copy_location(ast.Expr(self._call("imod_attr", args, node)), node)
        key = self._slices(target.slice)  # type: ignore[attr-defined]
        return ast.copy_location(ast.Expr(self._call("imod_item", [target.value, key, node.value], node)), node)  # type: ignore[attr-defined]

    def _slices(self, key: ast.expr) -> ast.expr:
        """A subscript's key as an expression (`a:b` as slice(a, b), in a tuple too)."""
        if isinstance(key, ast.Slice):
            parts = [p if p is not None else ast.copy_location(ast.Constant(None), key)
                     for p in (key.lower, key.upper, key.step)]
            return self._call("slice", parts, key)
        if isinstance(key, ast.Tuple):
            return ast.copy_location(ast.Tuple(elts=[self._slices(e) for e in key.elts], ctx=ast.Load()), key)
        return key

    # annotations stay as written
    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        returns, node.returns = node.returns, None
        self.generic_visit(node)
        node.returns = returns
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        annotation, node.annotation = node.annotation, ast.Constant(None)
        self.generic_visit(node)
        node.annotation = annotation
        return node


def checked_formatting(tree: ast.AST) -> ast.AST:
    """`tree` with every %-formatting checked (`_CheckedFormatting`), in place."""
    tree = _CheckedFormatting().visit(tree)
    ast.fix_missing_locations(tree)
    return tree


def formatting_checked() -> bool:
    """Whether this process compiles a candidate's code through `checked_formatting`."""
    return hasattr(builtins, IMAGE_NAME)


def compile_candidate(source: bytes | str, path: str) -> Any:
    """The candidate module's code object, through `checked_formatting` where this process
    checks formatting (else as Python compiles it)."""
    tree = ast.parse(source, path)
    if formatting_checked():
        tree = checked_formatting(tree)
    return compile(tree, path, "exec", dont_inherit=True)


class _KernelTransformer:
    """Triton's interpreter's transformer of a kernel's source, followed by `checked_formatting`
    (an interpreted kernel runs its source compiled anew, not the module's code)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def visit(self, tree: ast.AST) -> ast.AST:
        return checked_formatting(self.inner.visit(tree))


def _kernels_checked() -> None:
    """A kernel's %-formatting checked where this process runs it: the interpreter's rewrite of
    its source (`_KernelTransformer`), and tl.constexpr's `%`, which Triton's front end computes
    on this Python when the CPU check compiles a kernel for the GPU (evaluator.device_compile,
    the autotune emulation's compile check): it evaluates both arms of a branch, so a
    `tl.static_assert` in an arm the interpreter never runs is judged by it alone."""
    try:
        from triton.language import core
        from triton.runtime import interpreter
    except ImportError:  # deliberate: a Triton without the interpreter runs no kernel's source here
        return
    rewriter = getattr(interpreter, "FunctionRewriter", None)
    current = getattr(rewriter, "ast_transformer", None)
    if current is not None and not isinstance(current, _KernelTransformer):
        rewriter.ast_transformer = _KernelTransformer(current)  # type: ignore[union-attr]
    for name in ("__mod__", "__rmod__"):
        real = core.constexpr.__dict__.get(name)
        if real is not None and not getattr(real, "_krl_checked", False):
            setattr(core.constexpr, name, _checked_constexpr(real))


def _checked_constexpr(real: Any) -> Any:
    def checked(self: Any, other: Any) -> Any:
        return refuse_unknown(real(self, other), "%-formatting")

    checked._krl_checked = True  # type: ignore[attr-defined]
    checked.__name__ = checked.__qualname__ = real.__name__
    return checked


def python_as_the_gpus() -> None:
    """In a candidate child on a Python older than 3.12, sum() adds as 3.12's, and no str holding
    an unknown character is made: chr(), format() and %-formatting refuse to (the module's code
    and its interpreted kernels compiled through `checked_formatting`)."""
    if not OLDER_THAN_THE_IMAGE:
        return
    _kernels_checked()  # (first: importing Triton runs library code, which must see the real builtins)
    if builtins.sum is _REAL_SUM:
        builtins.sum = _BuiltinSum()  # type: ignore[assignment]
    if builtins.chr is _REAL_CHR:
        builtins.chr = _BuiltinChr()  # type: ignore[assignment]
    if builtins.format is _REAL_FORMAT:
        builtins.format = _BuiltinFormat()  # type: ignore[assignment]
    if not formatting_checked():
        setattr(builtins, IMAGE_NAME, _Formatting())


def resource_errors() -> None:
    """Run first by every except clause of a candidate's file (static_checks.RESOURCE, installed
    as a builtin by evaluator.runner): a MemoryError or RecursionError being handled is raised
    again, since which machine raises it depends on its memory and limits, not on what the file
    computes (a 30 GB allocation in a module-level try, round s47); and an UnknownCharacter, the
    CPU check's refusal of a string the GPU's Python reads otherwise (module docstring)."""
    exc = sys.exc_info()[1]
    kinds = (MemoryError, RecursionError, UnknownCharacter)
    if isinstance(exc, kinds):
        raise exc
    # an `except*` clause handles the group its body's error was wrapped in (red team rt58: a
    # MemoryError under the CPU's limit read as a switch through `except* Exception:`)
    group = getattr(builtins, "BaseExceptionGroup", None)  # Python 3.11+ (no except* before)
    if group is not None and isinstance(exc, group) and exc.subgroup(lambda e: isinstance(e, kinds)) is not None:
        raise exc
