"""`match` statements in host code, for the static walk (evaluator.static_walk.Checker).

Each pattern is judged as the construct it is: a capture binds a name (static_scopes records
it, and the binding rules hold: `case torch:` rebinds an import), a value pattern is an
expression compared with `==`, a class pattern an isinstance test whose keyword attributes are
attribute reads, a guard an expression. In a kernel `match` is the GPU compiler's refusal.
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A

# builtin types whose class pattern's one positional sub-pattern matches the value itself
SELF_MATCHING = frozenset({"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list",
                           "set", "str", "tuple"})


class MatchStatements:
    """The walker's `match` handlers (a mixin of Checker, which supplies add/expr/body/resolve)."""

    def _s_Match(self, node: ast.Match) -> None:
        """`match` in host code (a dispatch on an activation's name, a dtype, a shape tuple):
        each pattern compares with `==`, tests a type, reads named attributes or binds names
        (static_scopes), which the checks judge as they judge those expressions. In a kernel
        it is the GPU compiler's refusal (Triton's code generator has no match)."""
        fn = self.enclosing_def(node)
        if fn is not None and id(fn) in self.kernels:
            self.add(node, "device_syntax", f"a match statement in the kernel {fn.name}: Triton's "
                     "compiler refuses it on the GPU", "branch with if/elif on tl.constexpr values",
                     status="compile_error")
            return
        self.expr(node.subject)
        for case in node.cases:
            self._pattern(case.pattern)
            if case.guard is not None:
                self.expr(case.guard)
            self.body(case.body)

    def _pattern(self, pattern: ast.pattern) -> None:
        if isinstance(pattern, ast.MatchValue):
            self.expr(pattern.value)
        elif isinstance(pattern, ast.MatchMapping):
            for key in pattern.keys:
                self.expr(key)
        elif isinstance(pattern, ast.MatchClass):
            self._class_pattern(pattern)
        for sub in ast.iter_child_nodes(pattern):
            if isinstance(sub, ast.pattern):
                self._pattern(sub)

    def _class_pattern(self, pattern: ast.MatchClass) -> None:
        """`case int():`, `case str(name):`, `case torch.Tensor():`: an isinstance test. A
        positional sub-pattern of a builtin type matches the value itself; of any other class
        it reads the attributes that class's __match_args__ names, which the file cannot see,
        so only keyword sub-patterns (`case C(block=b)`) are taken there, each attribute held
        to the rules of `value.name`."""
        cls = pattern.cls
        builtin = isinstance(cls, ast.Name) and cls.id in SELF_MATCHING and self.resolve(cls)[0] == "builtin"
        if not builtin:
            self.expr(cls)
            if pattern.patterns:
                self.add(pattern, "reflection", "a positional class pattern reads the attributes the "
                         "class's __match_args__ names", "name them: `case C(attr=x)`")
        for name in pattern.kwd_attrs:
            lower = name.lower()
            if name.startswith("_") or "hook" in lower or "storage" in lower or name in A.DENIED_ATTRIBUTES or (
                    name in self.t.class_attributes or name.startswith(A.FRAME_PREFIXES)):
                self.add(pattern, "reflection", f"the class pattern reads the attribute {name}, which is "
                         "not allowed", "match on public attributes of your own values")
