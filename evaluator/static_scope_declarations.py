"""`global` and `nonlocal` in a candidate's file (a mixin of evaluator.static_walk.Checker):
where they may stand and what the functions that declare them may bind, so that a write the
scopes do not follow never changes what the checks took a name for."""
from __future__ import annotations

import ast


class ScopeDeclarations:
    """The statement checks of `global` and `nonlocal` (the Checker's `add`, `kernels` and
    `enclosing_def` are used)."""

    def _s_Global(self, node: ast.Global) -> None:
        """`global name` in a host function (a lazily filled module-level cache, `_NUM_SMS`):
        the scopes bind the name in the module, so every binding the function makes is
        checked as a module-level binding would be (an import, class, kernel, builtin or
        dunder name rebound is refused there). A kernel body is Triton, where the GPU's
        compiler refuses `global`, and the CPU interpreter would run it as host Python."""
        fn = self.enclosing_def(node)
        if fn is not None and id(fn) in self.kernels:
            self.add(node, "forbidden_syntax", f"`global` in the kernel {fn.name}: Triton's compiler "
                     "refuses it on the GPU", "pass the value to the kernel as an argument")
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            declared = set(node.names)
            for sub, name in _statement_bindings(fn):
                if name in declared:
                    self.add(sub, "monkey_patch", f"binds the global name {name} by an import, def, "
                             "class or except", "assign the global a value (`name = ...`)")


    def _s_Nonlocal(self, node: ast.Nonlocal) -> None:
        """`nonlocal name` in a host closure (a counter or flag its enclosing host function
        keeps, honest round s50; session 51c). The scopes do not follow a nonlocal write into
        the enclosing function, so the write may not change what the checks took the name
        for there: the enclosing function binds it itself, never as a parameter, import, def,
        class, loop, with or except target, only `name = <literal constant>` or `name op=
        ...`, and the closure binds it only so (a kernel, module, torch function or alias is
        then never what the name holds: a constant and what arithmetic on one gives). A
        kernel body is Triton, whose compiler refuses `nonlocal`."""
        fn = self.enclosing_def(node)
        outer = self.enclosing_def(fn) if isinstance(fn, ast.FunctionDef) else None
        if not (isinstance(fn, ast.FunctionDef) and isinstance(outer, ast.FunctionDef)) or any(
                id(f) in self.kernels for f in (fn, outer)):
            self.add(node, "forbidden_syntax", "`nonlocal` only in a host function nested in a host "
                     "function (never in a kernel: Triton's compiler refuses it)",
                     "keep the state in a variable of the enclosing function, or pass it in")
            return
        for name in node.names:
            inner, enclosing = _closure_bindings(fn, name), _closure_bindings(outer, name)
            if not enclosing or not all(map(_counter_binding, inner + enclosing)):
                self.add(node, "forbidden_syntax", f"`nonlocal {name}`: the enclosing function {outer.name} "
                         f"and {fn.name} may bind {name} only as `{name} = <literal constant>` or "
                         f"`{name} += ...` (no parameter, import, def, loop or with target, no other value)",
                         "keep a counter or flag of literal constants, or return the value")


def _closure_bindings(fn: ast.FunctionDef, name: str) -> list[tuple[ast.AST, ast.AST | None]]:
    """(binding node, its parent) for each way a function's own scope binds `name`: Name
    stores and deletes, parameters, imports, defs, classes, except targets, global/nonlocal
    (not looking into nested scopes; a comprehension's target is its own, a walrus in one
    the function's)."""
    out: list[tuple[ast.AST, ast.AST | None]] = []
    args = fn.args
    out += [(a, None) for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            if a is not None and a.arg == name]
    todo: list[tuple[ast.AST, ast.AST]] = [(c, fn) for c in fn.body]
    while todo:
        sub, parent = todo.pop()
        if isinstance(sub, ast.Name) and sub.id == name and not isinstance(sub.ctx, ast.Load):
            out.append((sub, parent))
        elif isinstance(sub, (ast.Global, ast.Nonlocal)) and name in sub.names:
            out.append((sub, parent))
        elif isinstance(sub, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in sub.names):
            out.append((sub, parent))
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if getattr(sub, "name", None) == name:
                out.append((sub, parent))
            continue  # its own scope (its decorators and defaults are the function's: not counters)
        elif isinstance(sub, ast.ExceptHandler) and sub.name == name:
            out.append((sub, parent))
        elif isinstance(sub, (ast.MatchAs, ast.MatchStar)) and sub.name == name:
            out.append((sub, parent))
        elif isinstance(sub, ast.MatchMapping) and sub.rest == name:
            out.append((sub, parent))
        todo.extend((c, sub) for c in ast.iter_child_nodes(sub))
    return out


def _counter_binding(found: tuple[ast.AST, ast.AST | None]) -> bool:
    """A binding a nonlocal counter or flag may have: `name = <constant>` (one target),
    `name: T = <constant>`, `name op= ...`; the `nonlocal` statement itself."""
    node, parent = found
    if isinstance(node, ast.Nonlocal):
        return True
    if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Store):
        return False
    if isinstance(parent, ast.AugAssign):
        return parent.target is node
    if isinstance(parent, ast.Assign):
        return parent.targets == [node] and isinstance(parent.value, ast.Constant)
    if isinstance(parent, ast.AnnAssign):
        return parent.target is node and isinstance(parent.value, ast.Constant)
    return False


def _statement_bindings(fn: ast.AST) -> list[tuple[ast.AST, str]]:
    """The names a function's own statements bind other than by assignment (an import's
    aliases, a nested def or class, an except target), not looking into nested scopes."""
    out, todo = [], list(ast.iter_child_nodes(fn))
    while todo:
        sub = todo.pop()
        if isinstance(sub, (ast.Import, ast.ImportFrom)):
            out += [(sub, a.asname or a.name.split(".")[0]) for a in sub.names if a.name != "*"]
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((sub, sub.name))
            todo.extend([*sub.decorator_list, *getattr(sub, "bases", ())])
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            out.append((sub, sub.name))
            todo.extend(ast.iter_child_nodes(sub))
        elif not isinstance(sub, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            todo.extend(ast.iter_child_nodes(sub))
    return out
