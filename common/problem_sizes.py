"""A problem's sizes: the module-level constants its file declares (`dim = 8192`) and the
per-device values that replace them after the file runs (common.problemset's `sizes`), with
the assignments computed from them re-run so the problem stays consistent."""
from __future__ import annotations

import ast
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


def declared_sizes(source: str) -> dict[str, Any]:
    """The values a problem file itself gives its module-level constants (`dim = 8192`):
    the sizes it declares, which a device's `sizes` override. Read from the AST, never run
    (empty where the source does not parse)."""
    declared: dict[str, Any] = {}
    try:
        body = ast.parse(source).body
    except (SyntaxError, ValueError):
        return declared
    for node in body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    declared[target.id] = node.value.value
    return declared


def apply_sizes(namespace: dict, source: str, sizes: Mapping[str, Any], filename: str = "<sizes>",
                transform: Callable[[ast.Module], ast.AST] | None = None) -> None:
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
