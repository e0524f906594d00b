"""A problem's source as text: the cheap checks that it is a KernelBench program, reading it from a
file, and the errors every problem loader raises.

Standard library only: common.problemset (loading, the `Problem` type) re-exports all of it,
and the checks never run the source (the evaluator runs it, in its sandbox).
"""

from __future__ import annotations

import ast
from pathlib import Path

MAX_SOURCE_BYTES = 1 << 20
"""A problem source larger than this is rejected: no real reference program is that big."""


class ProblemError(ValueError):
    """A problem file, row or name is unusable; the message names it and says why."""


class UnknownProblemError(ProblemError, LookupError):
    """A built-in problem name or family that does not exist; the message lists close names."""


def _takes_no_required_args(fn: ast.FunctionDef) -> bool:
    a = fn.args
    required_pos = len(a.posonlyargs) + len(a.args) - len(a.defaults)
    required_kw = sum(1 for d in a.kw_defaults if d is None)
    return required_pos == 0 and required_kw == 0


def validate_problem_source(source: str, origin: str) -> None:
    """Cheap AST check that `source` is a KernelBench problem; ProblemError naming `origin`."""
    if not source.strip():
        raise ProblemError(f"{origin}: the problem source is empty")
    size = len(source.encode("utf-8"))
    if size > MAX_SOURCE_BYTES:
        raise ProblemError(
            f"{origin}: the problem source is {size} bytes, over the {MAX_SOURCE_BYTES}-byte limit"
        )
    try:
        tree = ast.parse(source, filename=origin)
    except SyntaxError as exc:
        raise ProblemError(f"{origin}: syntax error at line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:  # e.g. NUL bytes in the source
        raise ProblemError(f"{origin}: not parseable as Python: {exc}") from None
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    has_model = any(
        (isinstance(n, ast.ClassDef) and n.name == "Model")
        or (
            isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "Model" for t in n.targets)
        )
        for n in tree.body
    )
    missing = [
        what
        for what, ok in (
            ("class Model", has_model),
            ("def get_inputs()", "get_inputs" in functions),
            ("def get_init_inputs()", "get_init_inputs" in functions),
        )
        if not ok
    ]
    if missing:
        raise ProblemError(
            f"{origin}: not a KernelBench problem: missing top-level " + ", ".join(missing)
        )
    for fname in ("get_inputs", "get_init_inputs"):
        if not _takes_no_required_args(functions[fname]):
            raise ProblemError(f"{origin}: {fname}() must take no arguments")


def read_source_file(path: Path) -> str:
    """Read a problem or solution file: UTF-8, non-empty, at most MAX_SOURCE_BYTES."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ProblemError(f"{path}: cannot read: {exc.strerror}") from None
    if size > MAX_SOURCE_BYTES:
        raise ProblemError(f"{path}: file is {size} bytes, over the {MAX_SOURCE_BYTES}-byte limit")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProblemError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None
