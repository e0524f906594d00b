"""Members read through a class of the file (a mixin of
evaluator.static_expressions.ExpressionChecker): a private staticmethod called through its own
class, a method taken off a class as a function, what a class or its bases bind."""
from __future__ import annotations

import ast

from evaluator.static_stores import is_dunder


class ClassMemberReads:
    """The checks of `C.member` where C is a class of the file (the checker's `add`,
    `classes`, `privileged` and `parent` are used)."""

    def _own_static_call(self, root: ast.expr, cls: object, node: ast.Attribute) -> bool:
        """`C._helper(...)`, called at once: C is the file's own class by its name (never a
        parameter, which a subclass could fill), and `_helper` a @staticmethod (that decorator
        alone) its own body defines once and binds nothing else to: the file's code, run with
        the arguments it is handed (triton.ops.matmul's `_matmul._call(a, b)` in forward, honest
        round s51b). Not an inherited private (nn.Module's and Function's internals stay off
        limits), a method with a privileged first parameter, or a read without the call."""
        call = self.parent.get(id(node))
        if not (isinstance(cls, ast.ClassDef) and isinstance(root, ast.Name) and node.value is root
                and isinstance(node.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is node
                and not is_dunder(node.attr) and node.attr not in self.t.module_private):
            return False
        b = self.scopes.single(root)
        if b is None or b.kind != "class":
            return False
        binds = [s for s in cls.body if node.attr in class_body_binds(s)]
        if len(binds) != 1 or not isinstance(binds[0], ast.FunctionDef):
            return False
        marks = binds[0].decorator_list
        return len(marks) == 1 and isinstance(marks[0], ast.Name) and (
            self.resolve(marks[0]) == ("builtin", "staticmethod"))

    def _method_through_class(self, cls: ast.ClassDef, node: ast.Attribute) -> None:
        """`C.method(obj)` would run the method with any object as its privileged `self`
        (or `ctx`): only `C.method(self, ...)` is allowed, and a ctx method only via apply."""
        role = self._privileged_role(cls, node.attr, set())
        call = self.parent.get(id(node))
        if role is None or (role == "self" and isinstance(call, ast.Call) and call.func is node
                            and call.args and self.resolve(call.args[0])[0] == "self"):
            return
        self.add(node, "reflection", f"{node.attr} is taken from its class, so its "
                 f"{role} could be any object", "call it on an instance (self.method(...)), "
                 "or an autograd.Function through .apply")

    def _defines(self, cls: ast.ClassDef, name: str, seen: set) -> bool:
        """Whether the file's class, or a class of the file it derives from, binds `name` in its body."""
        seen.add(cls.name)
        # a bare annotation (`register: int`) binds nothing in the class's dict: the metaclass's
        # register is then what the class hands out (red team s51e)
        if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name or isinstance(
                s, (ast.Assign, ast.AnnAssign)) and s.value is not None and any(
                    isinstance(t, ast.Name) and t.id == name for t in (
                        s.targets if isinstance(s, ast.Assign) else [s.target])) for s in cls.body):
            return True
        return any(isinstance(b, ast.Name) and b.id not in seen and b.id in self.classes
                   and self._defines(self.classes[b.id], name, seen) for b in cls.bases)

    def _privileged_role(self, cls: ast.ClassDef, name: str, seen: set) -> str | None:
        seen.add(cls.name)
        role = self.privileged.get(cls.name, {}).get(name)
        for base in cls.bases:
            if role is None and isinstance(base, ast.Name) and base.id not in seen and (
                    base.id in self.classes):
                role = self._privileged_role(self.classes[base.id], name, seen)
        return role

def class_body_binds(stmt: ast.stmt) -> set[str]:
    """The names a statement of a class body binds in it (defs, classes, targets, imports,
    and any walrus or loop target nested in it)."""
    names: set[str] = set()
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names.add(stmt.name)
        return names
    for n in ast.walk(stmt):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)  # a def under an if of the class body (counted wherever it lies)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.split(".")[0] for a in n.names}
    return names
