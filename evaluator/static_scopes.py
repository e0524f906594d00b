"""Python's name binding for a candidate's AST: which definition each name refers to.

The static checks need to know, for every name a candidate loads, whether it is an
import (and of what), a function or class of the file, the `self` of a method, a plain
local, or a builtin. This module applies Python's scoping rules (a name bound anywhere
in a function is local to all of it; class bodies do not enclose their methods;
comprehensions have their own scope; the walrus binds in the enclosing function) so
that neither a shadowing parameter nor a module-level alias can hide what a name is.
A class body runs top to bottom, and a name it binds only later (a constant or method
below) is looked up outside the class, so in a class scope only the bindings of
earlier statements count (`def m(self, s=torch.sys): ...` above `torch = 1` names the
module torch).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop, ast.Constant)


@dataclass(eq=False)
class Binding:
    """One way a scope binds a name."""

    kind: str  # "import" | "def" | "class" | "param" | "local"
    node: ast.AST
    target: str = ""  # import: the dotted name it binds


@dataclass(eq=False)
class Scope:
    node: ast.AST
    parent: Scope | None
    names: dict[str, list[Binding]] = field(default_factory=dict)
    index: int = 0  # a class scope: the statement of its body being visited
    globals: frozenset[str] = frozenset()  # a function's `global` names: bound in the module

    @property
    def is_class(self) -> bool:
        return isinstance(self.node, ast.ClassDef)

    def bind(self, name: str, binding: Binding) -> None:
        self.names.setdefault(name, []).append(binding)


class CheckTooCostly(BaseException):
    """The static checks ran past their budget on this file (a BaseException: no `except
    Exception` on its way up, the checks' or a library's, swallows it)."""


class Scopes:
    """Scopes of one module; `lookup(name_node)` answers what a loaded name is."""

    def __init__(self, tree: ast.Module):
        self.module = Scope(tree, None)
        self.of_node: dict[int, Scope] = {}  # id(Name node or scope node) -> scope it is in
        self.inner: dict[int, Scope] = {id(tree): self.module}  # id(scope node) -> its scope
        # id(node) -> the node that contains it, for every node the visit enters (not the
        # children of `arguments`, `arg` and `comprehension`: nothing asks for those)
        self.parent: dict[int, ast.AST] = {}
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        # id(node) -> index of the class-body statement it is part of, for the nodes
        # (uses and bindings) whose scope is a class body
        self.position: dict[int, int] = {}
        self._visit(tree, self.module)

    def lookup(self, node: ast.Name) -> tuple[Scope | None, list[Binding]]:
        """The scope that binds `node.id` as seen from where the name is, and its bindings."""
        scope = self.of_node.get(id(node), self.module)
        first = True
        while scope is not None:
            if (first or not scope.is_class) and node.id in scope.names:
                bindings = scope.names[node.id]
                if scope.is_class:  # only what the body bound before this statement
                    at = self.position.get(id(node))
                    bindings = [b for b in bindings if at is None
                                or self.position.get(id(b.node), at) < at]
                if bindings:
                    return scope, bindings
            first = False
            scope = scope.parent
        return None, []

    def single(self, node: ast.Name) -> Binding | None:
        """The one binding of a loaded name (None: builtin/unbound, or bound several ways)."""
        _, bindings = self.lookup(node)
        return bindings[0] if len(bindings) == 1 else None

    def enclosing_function(self, node: ast.AST) -> Scope | None:
        scope = self.of_node.get(id(node), self.module)
        while scope is not None and not isinstance(scope.node, _FUNCTIONS):
            scope = scope.parent
        return scope

    # ------------------------------------------------------------------ building
    def _child(self, node: ast.AST, scope: Scope) -> Scope:
        inner = Scope(node, scope)
        self.inner[id(node)] = inner
        return inner

    def _visit(self, node: ast.AST, scope: Scope) -> None:
        self.of_node[id(node)] = scope
        if scope.is_class:
            self.position[id(node)] = scope.index
        if type(node) is ast.If and scope is self.module and is_main_guard(node) and (
                self.parent.get(id(node)) is self.module.node):
            self.parent[id(node.test)] = node  # the body never runs: nothing it binds exists
            self._visit(node.test, scope)
            return
        if type(node) is ast.Name:  # the commonest node; its only child is its ctx
            if node.id in scope.globals:  # `global name`: the module's binding, read and written
                scope = self.of_node[id(node)] = self.module
            # an annotation without a value (`inspect: object`, `exec: object` in a class
            # body) binds nothing at run time: the name stays the global or builtin it was
            if type(node.ctx) is not ast.Load and not _annotation_only(self.parent.get(id(node)), node):
                scope.bind(node.id, Binding("local", node))
            return
        children = [c for c in ast.iter_child_nodes(node) if not isinstance(c, _LEAVES)]
        for child in children:
            self.parent[id(child)] = node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            self._function(node, scope)
        elif isinstance(node, ast.ClassDef):
            self._home(scope, node.name).bind(node.name, Binding("class", node))
            for child in (*node.decorator_list, *node.bases, *node.keywords):
                self._visit(child, scope)
            inner = self._child(node, scope)
            for i, stmt in enumerate(node.body):
                inner.index = i
                self._visit(stmt, inner)
        elif isinstance(node, _COMPREHENSIONS):
            self._comprehension(node, scope)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    continue
                if isinstance(node, ast.ImportFrom):
                    target = f"{node.module}.{alias.name}" if node.module else alias.name
                    name = alias.asname or alias.name
                else:
                    target = alias.name if alias.asname else alias.name.split(".")[0]
                    name = alias.asname or alias.name.split(".")[0]
                self._home(scope, name).bind(name, Binding("import", node, target))
        elif isinstance(node, ast.ExceptHandler):
            if node.name:  # `except E as e` (only a module-level try gets past the checks)
                self._home(scope, node.name).bind(node.name, Binding("local", node))
            for child in children:
                self._visit(child, scope)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar, ast.MatchMapping)):
            name = node.rest if isinstance(node, ast.MatchMapping) else node.name
            if name:  # a capture pattern (`case [first, *rest]`, `case {"k": v, **more}`) binds
                self._home(scope, name).bind(name, Binding("local", node))
            for child in children:
                self._visit(child, scope)
        elif isinstance(node, ast.NamedExpr):
            home = scope
            while isinstance(home.node, _COMPREHENSIONS):
                home = home.parent  # type: ignore[assignment]
            home = self._home(home, node.target.id)
            home.bind(node.target.id, Binding("local", node.target))
            self.of_node[id(node.target)] = home
            self._visit(node.value, scope)
        else:
            for child in children:
                self._visit(child, scope)

    def _home(self, scope: Scope, name: str) -> Scope:
        """Where a binding of `name` made in `scope` lands: the module where the function
        declared it `global` (every binding form: a name, a walrus, an import, a def, a class,
        an except target; red team s31b rebound `print` to numpy by an import)."""
        return self.module if name in scope.globals else scope

    def _function(self, node: ast.AST, scope: Scope) -> None:
        args = node.args
        if not isinstance(node, ast.Lambda):
            self.functions.append(node)
            self._home(scope, node.name).bind(node.name, Binding("def", node))
            for child in (*node.decorator_list, *([node.returns] if node.returns else [])):
                self._visit(child, scope)
        self.parent[id(args)] = node
        for child in (*args.defaults, *[d for d in args.kw_defaults if d is not None]):
            self.parent[id(child)] = args  # a default is evaluated once, in the defining scope
            self._visit(child, scope)
        inner = self._child(node, scope)
        inner.globals = frozenset(_declared_global(node))
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                 *[a for a in (args.vararg, args.kwarg) if a is not None]]
        for arg in every:
            self.of_node[id(arg)] = inner
            inner.bind(arg.arg, Binding("param", arg))
            if arg.annotation is not None:
                self.parent[id(arg.annotation)] = arg
                self._visit(arg.annotation, scope)
        for stmt in node.body if isinstance(node.body, list) else [node.body]:
            self._visit(stmt, inner)

    def _comprehension(self, node: ast.AST, scope: Scope) -> None:
        gens = node.generators
        for gen in gens:  # a generator's parts name it as their parent (`for c in K.configs`)
            for child in (gen.target, gen.iter, *gen.ifs):
                self.parent[id(child)] = gen
            self.parent[id(gen)] = node
        self._visit(gens[0].iter, scope)  # the first iterable is evaluated outside
        inner = self._child(node, scope)
        for i, gen in enumerate(gens):
            self.of_node[id(gen)] = inner
            self._visit(gen.target, inner)
            if i:
                self._visit(gen.iter, inner)
            for cond in gen.ifs:
                self._visit(cond, inner)
        for part in ("elt", "key", "value"):
            if getattr(node, part, None) is not None:
                self._visit(getattr(node, part), inner)


def sole_target(stmt: ast.AST | None) -> ast.expr | None:
    """The one target of `x = v`, or of `x: T = v` (an annotated binding with a value binds as
    the plain one does; its annotation is judged as an annotation wherever it stands), else
    None. Typed module globals are how mypy-clean library code writes caches, kernel tables,
    `__all__` and loggers (honest round s38)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return stmt.targets[0]
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and stmt.simple:
        return stmt.target
    return None


def is_main_guard(node: ast.AST) -> bool:
    """`if __name__ == "__main__":` without else. At module level its body never runs in
    the harness, which imports a candidate under a module name of its own."""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and not node.orelse  # type: ignore[union-attr]
            and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def _annotation_only(parent: ast.AST | None, node: ast.Name) -> bool:
    return type(parent) is ast.AnnAssign and parent.value is None and parent.target is node


def _declared_global(node: ast.AST) -> list[str]:
    """The names a function's own `global` statements declare (not those of a function or
    class nested in it, whose scopes are their own)."""
    names, todo = [], list(ast.iter_child_nodes(node))
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.Global):
            names.extend(sub.names)
        elif not isinstance(sub, (*_FUNCTIONS, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(sub))
    return names


def bound_names(node: ast.AST) -> list[str]:
    """The names one node binds where it stands, parameters aside: a stored or deleted Name, an
    import alias, a def or class, an `except ... as` name, a match capture, the names of a
    `global`/`nonlocal` statement (the forms Scopes binds; the plain-str ones have no Name node)."""
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    return []
