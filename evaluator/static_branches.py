"""Module-level conditions: what the static checks judge when a file defines things under `if`.

Public kernel files choose at import time: `if _TRITON_AVAILABLE:` around the kernels
(after `try: import triton ... except ImportError:`), `if TYPE_CHECKING:` around imports for
annotations, `if <feature probe>: exp = fast_exp else: @triton.jit def exp(...)`. At
module level an `if` runs once, at import, and exactly one of its arms runs, so the file
that runs is one of the files obtained by keeping one arm of each such `if`:

  settled   a condition whose value is known before anything runs keeps its taken arm
            only; the other arm never runs and is not judged. Known: a literal, a name
            bound once in the whole file to a known value, `typing.TYPE_CHECKING`, a
            feature probe `hasattr(<torch/triton module>, "name")` of the installed
            library (True only for a name the module defines whatever was imported
            before, i.e. no submodule; False only for a name that is no attribute and no
            submodule), a version gate (one comparison of string literals, the installed
            torch's or triton's `__version__` and packaging's Version/parse of them), and
            `not`/`and`/`or` of these.
  variants  any other condition: the checks judge each file the arms give (the condition
            itself kept as an expression statement, so what it calls is judged too) and
            the candidate carries the findings of all of them. Whichever arm runs, it is
            a file the checks accepted. Past VARIANT_LIMIT files the module is judged as
            written (both arms in one file, kernels under an `if` refused).

The test block `if __name__ == "__main__":` is neither: it never runs in the harness
(evaluator.static_idioms, "test-only function"). One nested in an arm stays what it was
before, a plain `if` whose body is judged.
"""
from __future__ import annotations

import ast
import copy
import importlib
import inspect
import operator
import types

from evaluator import gpu_names
from evaluator.static_budget import uninterrupted
from evaluator.static_idioms import declared_names
from evaluator.static_namespaces import exists
from evaluator.static_scopes import Scopes, is_main_guard

VARIANT_LIMIT = 32
_LITERALS = (bool, type(None), int, float, str)


def settle_module_ifs(tree: ast.Module, settled: list | None = None) -> None:
    """Replace each module-level `if` whose condition is settled by its taken arm (in place).
    Statements are taken in file order: a condition reads only what the module bound before
    it (`if print:` above `print = False` reads the builtin). Each settled `if` is appended to
    `settled` with its value: the source the candidate's process runs has the condition
    pinned to it (`static_checks.pinned_source`), so the arm that runs there is the one judged
    here even where that process would answer the condition otherwise (a probe of an
    attribute that something the child imports sets, red team s38)."""
    known = _Known(tree)
    tree.body = _settle(tree.body, known, settled if settled is not None else [])


def module_variants(tree: ast.Module) -> list[ast.Module]:
    """The files the unsettled module-level `if`s can make, one arm of each kept: [tree]
    itself when there is no such `if` or more than VARIANT_LIMIT files."""
    try:
        bodies = _expand(tree.body)
    except _TooMany:
        return [tree]
    if len(bodies) == 1 and bodies[0] == tree.body:
        return [tree]
    return [copy.deepcopy(ast.Module(body=b, type_ignores=tree.type_ignores)) for b in bodies]


def other_arms_names(variants: list[ast.Module]) -> list[frozenset[str]]:
    """For each variant, the module-level names only other variants bind: those an unsettled
    `if`'s other arm binds (SGLang's `if is_cuda_available: CUDA_CAPABILITY = ...`, read in a
    function under `if is_cuda_available and CUDA_CAPABILITY[0] > 8`: honest round s52). Read
    inside a function of this variant such a name is unbound here, so it raises NameError if
    that code ever runs, as in Python (static_shapes._unjudged_read); what it is where it is
    bound is judged in the variants that bind it."""
    bound = [frozenset(Scopes(v).module.names) for v in variants]
    every = frozenset().union(*bound)
    return [every - b for b in bound]


class _TooMany(Exception):
    pass


def _expand(stmts: list[ast.stmt]) -> list[list[ast.stmt]]:
    out: list[list[ast.stmt]] = [[]]
    for s in stmts:
        if isinstance(s, ast.If) and not is_main_guard(s):
            test = ast.copy_location(ast.Expr(value=s.test), s)
            alts = [[test, *b] for arm in (s.body, s.orelse) for b in _expand(_unguarded(arm))]
        else:
            alts = [[s]]
        out = [o + a for o in out for a in alts]
        if len(out) > VARIANT_LIMIT:
            raise _TooMany
    return out


def _settle(stmts: list[ast.stmt], known: _Known, settled: list) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for s in stmts:
        value = _truth(s.test, known.consts) if isinstance(s, ast.If) and not is_main_guard(s) else None
        if value is None:
            known.learn(s)
            out.append(s)
        else:
            settled.append((s, value))
            out.extend(_settle(_unguarded(s.body if value else s.orelse), known, settled))  # type: ignore[attr-defined]
    return out


def _unguarded(arm: list[ast.stmt]) -> list[ast.stmt]:
    """An arm with each test block in it kept a plain `if`: only a test block the file
    writes at module level is the one that never runs unchecked (as before this module)."""
    return [ast.copy_location(ast.If(test=ast.BoolOp(op=ast.And(), values=[s.test, ast.Constant(True)]),
                                      body=s.body, orelse=[]), s) if is_main_guard(s) else s for s in arm]


def _truth(e: ast.expr, consts: dict[str, object]) -> bool | None:
    """Python's truth value of a condition made of the file's literals, or None."""
    if isinstance(e, ast.Constant) and isinstance(e.value, _LITERALS):
        return bool(e.value)
    if isinstance(e, ast.Name) and e.id in consts:
        return bool(consts[e.id])
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and (
            f"{e.value.id}.{e.attr}" in consts):
        return bool(consts[f"{e.value.id}.{e.attr}"])
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "hasattr" and (
            "hasattr" in consts and len(e.args) == 2 and not e.keywords):
        return _probe(_dotted(e.args[0], consts), e.args[1])
    if isinstance(e, ast.Compare) and len(e.ops) == 1 and type(e.ops[0]) in _ORDER:
        a, b = _version(e.left, consts), _version(e.comparators[0], consts)
        if a is None or b is None:
            return None
        try:
            return bool(_ORDER[type(e.ops[0])](a, b))
        except Exception:  # noqa: BLE001  (a comparison that raises, TorchVersion's of a 5000-digit
            return None  # literal included, red team s41 round 14: not known here; judged in each arm)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        v = _truth(e.operand, consts)
        return None if v is None else not v
    if isinstance(e, ast.BoolOp):
        values = [_truth(v, consts) for v in e.values]
        if any(v is None for v in values):
            return None
        return all(values) if isinstance(e.op, ast.And) else any(values)  # type: ignore[arg-type]
    return None


_ORDER = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
          ast.Eq: operator.eq, ast.NotEq: operator.ne}
_PARSERS = frozenset({"packaging.version.Version", "packaging.version.parse"})


def _version(e: ast.expr, consts: dict[str, object]) -> object | None:
    """A side of a version gate (unsloth: `Version(triton.__version__) >= Version("3.0.0")`), as
    the candidate's process computes it: a string literal, the installed torch's or triton's
    `__version__` (torch's is a TorchVersion, which compares as versions do), or packaging's
    Version/parse of one of these; else None."""
    if isinstance(e, ast.Constant) and type(e.value) is str:
        return e.value
    if isinstance(e, ast.Attribute) and e.attr == "__version__":
        module = _dotted(e.value, consts)
        if module not in ("torch", "triton"):
            return None
        return _image_version(module)
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and (
            _dotted(e.func, consts) in _PARSERS):
        text = _version(e.args[0], consts)
        if not isinstance(text, str):
            return None
        from packaging.version import InvalidVersion, Version

        try:
            return Version(str(text))
        except (InvalidVersion, ValueError):  # deliberate: the gate would raise at import (a 5000-digit
            return None  # part is past int()'s limit: ValueError); not known here
    return None


def _image_version(module: str) -> object | None:
    """torch's or triton's `__version__` as the GPU image has it (evaluator.gpu_names; the
    candidate's own reads in a CPU child answer it too: device_answers), this machine's where
    nothing was recorded. A gate settled on this machine's (Triton 3.9 here, 3.6 there) kept one
    arm here and the other on the GPU, whose checks settle it on theirs (red team rt69: `if
    triton.__version__ < "3.7":` a forward of torch ops, ok on the CPU, which judged and ran
    only the else arm's kernel)."""
    recorded = (gpu_names.recorded() or {}).get("versions", {}).get(module)
    if isinstance(recorded, str):
        if module == "torch":
            from torch.torch_version import TorchVersion

            return TorchVersion(recorded)
        return recorded
    with uninterrupted():
        return getattr(importlib.import_module(module), "__version__", None)


def _dotted(e: ast.expr, consts: dict[str, object]) -> str | None:
    """The torch/triton (or packaging) name an expression spells through the file's imports,
    or None."""
    parts: list[str] = []
    while isinstance(e, ast.Attribute):
        parts.insert(0, e.attr)
        e = e.value
    module = consts.get(f"import {e.id}") if isinstance(e, ast.Name) else None
    return ".".join([module, *parts]) if isinstance(module, str) else None


def _probe(module: str | None, attr: ast.expr) -> bool | None:
    """hasattr(module, attr) as the candidate's process will answer it, when that does not
    depend on what was imported before it; else None."""
    if module is None or module.split(".")[0] not in ("torch", "triton") or not (
            isinstance(attr, ast.Constant) and isinstance(attr.value, str)
            and attr.value.isidentifier() and not attr.value.startswith("__")):
        return None
    if not exists(module):
        return None
    with uninterrupted():
        obj = importlib.import_module(module.split(".")[0])
        for part in module.split(".")[1:]:  # read, never run (`triton.runtime.driver.active`
            obj = inspect.getattr_static(obj, part, None)  # starts a GPU driver, red team s38)
        # of a module only: the CPU child adds attributes to Triton's classes (`tl.dtype.value`,
        # interpreter_guard), never to a module, and this process has none of them
        if not isinstance(obj, types.ModuleType):
            return None
        if not exists(f"{module}.{attr.value}"):
            # what this machine lacks and the GPU image has (`tl.advance`: Triton 3.6's, not
            # 3.9's) answers True there: the GPU's arm is the one judged and run (red team rt69)
            return gpu_names.has(f"{module}.{attr.value}")
        found = inspect.getattr_static(obj, attr.value, None)
    return True if found is not None and not isinstance(found, types.ModuleType) else None


class _Known:
    """What a condition may read, learnt statement by statement in file order. Each is a
    module-level name bound by one statement of the whole file, never declared global or
    nonlocal: `NAME = <known condition>`, typing's TYPE_CHECKING imported as itself, a
    torch/triton module (kept as "import NAME"). "hasattr" while the builtin is not rebound."""

    def __init__(self, tree: ast.Module):
        declared = declared_names(tree)
        names = Scopes(tree).module.names
        self.once = {name: b[0] for name, b in names.items() if len(b) == 1 and name not in declared}
        self.consts: dict[str, object] = {} if "hasattr" in names else {"hasattr": True}

    def learn(self, stmt: ast.stmt) -> None:
        """What a module-level statement binds, when it is known."""
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = alias.asname or alias.name.split(".")[0]
                b = self.once.get(name)
                if b is None or b.node is not stmt or b.kind != "import":
                    continue
                if b.target == "typing.TYPE_CHECKING":
                    self.consts[name] = False
                elif b.target.split(".")[0] in ("torch", "triton", "typing", "packaging"):
                    self.consts[f"import {name}"] = b.target
                    if b.target == "typing":
                        self.consts[f"{name}.TYPE_CHECKING"] = False
            return
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else (
            stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None)
        if isinstance(target, ast.Name) and target.id in self.once and self.once[target.id].node is target:
            value = _truth(stmt.value, self.consts)  # type: ignore[union-attr,arg-type]
            if value is not None:
                self.consts[target.id] = value
