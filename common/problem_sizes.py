"""A problem's sizes: the module-level constants its file declares (`dim = 8192`) and the
per-device values that replace them after the file runs (common.problemset's `sizes`), with
the assignments computed from them re-run so the problem stays consistent."""

from __future__ import annotations

import ast
import numbers
import operator
from collections.abc import Callable, Mapping
from typing import Any


def _assigned_names(target: ast.expr) -> list[str] | None:
    """The names a plain assignment target binds (`a`, `a, b`); None for anything else
    (attributes, subscripts), which is never re-run."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        names: list[str] = []
        for elt in target.elts:
            inner = _assigned_names(elt.value if isinstance(elt, ast.Starred) else elt)
            if inner is None:
                return None
            names += inner
        return names
    return None


_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
    ast.BitXor: operator.xor,
}
_SHIFTS = (ast.Pow, ast.LShift)  # exponent-like: the right operand bounded before computing
_MOST_ELEMENTS = 64  # a size list longer than this (`[1024] * 10 ** 9`) is not read
_LARGEST = 1 << 63  # no size is larger; `2 ** 10 ** 9` is never computed
_NOT_LITERAL = object()


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _literal(node: ast.expr) -> Any:
    """The value of `node` where it reads no name: a constant, or arithmetic over numbers
    (`M = 1024 * 2`, `K = 131072 * 8`, `n = -4`), the way KernelBench's level-1 GEMMs
    write their sizes; `_NOT_LITERAL` otherwise. A size computed from another name
    (`rows = dim * 2`) is derived, never declared: apply_sizes re-runs it instead."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _literal(node.operand)
        if not _number(value):
            return _NOT_LITERAL
        return -value if isinstance(node.op, ast.USub) else value
    if not (isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC):
        return _NOT_LITERAL
    left, right = _literal(node.left), _literal(node.right)
    if not (_number(left) and _number(right)):
        return _NOT_LITERAL
    if isinstance(node.op, _SHIFTS) and not (abs(left) <= _LARGEST and 0 <= right <= 64):
        return _NOT_LITERAL
    try:
        value = _ARITHMETIC[type(node.op)](left, right)
    except (ArithmeticError, ValueError, TypeError):  # TypeError: a float shifted
        return _NOT_LITERAL
    return value if _number(value) and abs(value) <= _LARGEST else _NOT_LITERAL


def _sequence(node: ast.expr) -> tuple | list | None:
    """The numbers of a tuple or list display of literals (`(8192 * 2,)`, `[16384, 16384]`),
    repeated (`[1024] * 16`) or joined (`[64] * 2 + [32]`), as the display's type; None for
    anything else, or past `_MOST_ELEMENTS` elements."""
    if isinstance(node, (ast.Tuple, ast.List)):
        elements = [_literal(elt) for elt in node.elts]
        if not all(_number(e) for e in elements) or len(elements) > _MOST_ELEMENTS:
            return None
        return tuple(elements) if isinstance(node, ast.Tuple) else elements
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        items, times = _sequence(node.left), _literal(node.right)
        if items is None:  # `16 * [1024]`
            items, times = _sequence(node.right), _literal(node.left)
        if items is None or type(times) is not int or not 0 <= times * len(items) <= _MOST_ELEMENTS:
            return None
        return items * times
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _sequence(node.left), _sequence(node.right)
        if (
            left is None
            or right is None
            or type(left) is not type(right)
            or len(left) + len(right) > _MOST_ELEMENTS
        ):
            return None
        return left + right
    return None


def _declared_by(target: ast.expr, value: ast.expr) -> dict[str, Any]:
    """The names `target = value` declares: one name and a literal, or a tuple or list of
    numbers (`input_shape = (32768,)`, KernelBench's losses and scans; `layer_sizes = [16384,
    16384]` and `[1024] * 16`, its level-3 MLPs: `_sequence`), or a tuple of names unpacking
    a tuple of literals of its length (`D, H, W = 24, 32, 32`, its level-2 3D convolutions)."""
    if isinstance(target, ast.Name) and (
        isinstance(value, (ast.Tuple, ast.List))
        or (isinstance(value, ast.BinOp) and _sequence(value) is not None)
    ):
        items = _sequence(value)
        return {} if items is None else {target.id: items}
    if isinstance(target, ast.Name):
        literal = _literal(value)
        return {} if literal is _NOT_LITERAL else {target.id: literal}
    if (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
    ):
        out: dict[str, Any] = {}
        for name, elt in zip(target.elts, value.elts):
            out.update(_declared_by(name, elt))
        return out
    return {}


def declared_sizes(source: str) -> dict[str, Any]:
    """The values a problem file itself gives its module-level constants (`dim = 8192`,
    `M = 1024 * 2`, `D, H, W = 24, 32, 32`, `input_shape = (8192,)`): the sizes it declares,
    which a device's `sizes` override. Read from the AST, never run (empty where the source
    does not parse). A size missed here is never raised to its declared value by the CPU's
    depth trials (evaluator.depth_phase): level1/4's K = 131072 * 8 was judged only at the
    CPU's K."""
    declared: dict[str, Any] = {}
    try:
        body = ast.parse(source).body
    except (SyntaxError, ValueError):
        return declared
    for node in body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                declared.update(_declared_by(target, node.value))
        elif isinstance(node, ast.AnnAssign) and node.value is not None:  # `dim: int = 8192`
            declared.update(_declared_by(node.target, node.value))
    return declared


def plain_size(value: Any) -> Any:
    """`value` as a size the wire carries: an integer (numpy's and torch's too, never a bool), a
    float, or a tuple or list of integers up to `_MOST_ELEMENTS` (a torch.Size as a tuple); None
    for anything else. What the problem module itself bound a size's name to, read in the
    reference child (`Workspace.declared`), so a size written any way (`int(16384)`, a class's
    attribute unpacked, `hidden * 4`) is the value the file gives (evaluator.depth_phase)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        return value
    if (
        isinstance(value, (tuple, list))
        and len(value) <= _MOST_ELEMENTS
        and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value)
    ):
        items = [int(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return None


def apply_sizes(
    namespace: dict,
    source: str,
    sizes: Mapping[str, Any],
    filename: str = "<sizes>",
    transform: Callable[[ast.Module], ast.AST] | None = None,
) -> None:
    """Set the size globals of an executed problem `source` to `sizes`, then re-run, in
    source order, the top-level assignments computed from them, so the problem stays
    consistent: KernelBench writes `bias_shape = (out_channels, 1, 1)` and
    `input_shape = (num_classes,)`, and a smaller `out_channels` alone would leave a
    bias of the full size (a reference that fails to broadcast). A name `sizes` sets
    itself is never recomputed. Each statement is compiled as code of `filename` (a candidate's
    statements as its own file's: what answers its code by the frame that asks, the GPU's sum()
    and device queries, answered them as the harness's under "<sizes>", session 48), through
    `transform` where one is given."""
    namespace.update(sizes)
    if not sizes:
        return
    changed = set(sizes)
    for node in ast.parse(source).body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        bound = [_assigned_names(t) for t in targets]
        if any(names is None for names in bound):
            continue
        names = {name for group in bound for name in group}
        reads = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        if names & set(sizes) or not reads & changed:
            continue
        tree: ast.AST = ast.Module([node], type_ignores=[])
        if transform is not None:
            tree = transform(tree)
        exec(compile(tree, filename, "exec"), namespace)  # noqa: S102
        changed |= names
