"""Decorators in a candidate's file (a mixin of evaluator.static_walk.Checker): the listed
library decorators with their settings, `@f.register` of a singledispatch function, the file's
own transparent and identity decorators (evaluator.static_decorators)."""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A
from evaluator.static_idioms import BENCHMARK, PERF_REPORT
from evaluator.static_kernel_values import LIBRARY_INSTEAD


class DecoratorChecks:
    """The decorator checks of defs and classes (the Checker's `add`, `qualify`, `kernels` and
    its transparent decorators are used)."""

    def decorators(self, node: ast.FunctionDef | ast.ClassDef, where: str) -> None:
        for dec in node.decorator_list:
            name = self._decorator_name(dec)
            if self._idiom_decorator(node, dec, name, where) or where == "m" and self._property_setter(node, dec):
                continue
            rule = A.DECORATORS.get(name or "")
            if rule is None or where not in rule[0]:
                self.add(dec, "forbidden_syntax", "this decorator is not allowed here",
                         LIBRARY_INSTEAD if (name or "").startswith("torch.library.") else
                         "use only @triton.jit/autotune/heuristics, @torch.no_grad(), "
                         "@staticmethod/classmethod/property, @functools.lru_cache, "
                         "@dataclasses.dataclass")
                self.expr(dec)  # what it names (torch.library.custom_op: tamper)
            elif isinstance(dec, ast.Call) and rule[1] is None:
                self.add(dec, "forbidden_syntax", f"{name} is used without a call",
                         f"write @{name}")
            elif isinstance(dec, ast.Call):
                splat = [k for k in dec.keywords if k.arg is None]
                bad = [k for k in dec.keywords if k.arg not in rule[1] and not (
                    k.arg is None and self._splat_settings(k.value, splat, rule[1])) and not (
                    k.arg == "launch_metadata" and name == "triton.jit" and self._host_function(k.value))]
                if bad:
                    self.add(dec, "harness_tamper", f"{name} does not take "
                             f"{', '.join(str(k.arg) for k in bad)} here", "pass only the "
                             f"keywords {', '.join(sorted(rule[1]))}")
                elif not self._decorator_arguments_plain(dec, name or ""):
                    self.add(dec, "reflection", f"{name} takes only literal arguments here (a "
                             "callable given to it would be handed the decorated function)",
                             f"write @{name}() with literal arguments")
                self.call_arguments(dec)

    def _dispatch_register(self, node: ast.FunctionDef | ast.ClassDef, dec: ast.expr) -> bool:
        """`@f.register` / `@f.register(C)` on a module-level host def, f a module-level
        @functools.singledispatch def of the file: whether `dec` has that shape (a finding is
        added where its class is not one the rule takes). The class keys the registry that
        dispatch reads: only a builtin value type (DISPATCH_TYPES) or a class of the file, so
        no torch class (or object) routes a call; register's two-argument form, which hands it
        any callable, and every other read of f's attributes (dispatch, registry) stay refused
        as attributes of a def."""
        attr = dec.func if isinstance(dec, ast.Call) else dec
        if not (isinstance(attr, ast.Attribute) and attr.attr == "register" and isinstance(attr.value, ast.Name)):
            return False
        kind, base = self.resolve(attr.value)
        if not (kind == "def" and isinstance(base, ast.FunctionDef) and any(
                self.qualify(d) == "functools.singledispatch" for d in base.decorator_list)
                and isinstance(self.parent.get(id(base)), ast.Module)):
            return False
        if not (isinstance(node, ast.FunctionDef) and isinstance(self.parent.get(id(node)), ast.Module)
                and id(node) not in self.kernels and len(node.decorator_list) == 1):
            self.add(dec, "forbidden_syntax", "a singledispatch implementation is a module-level host "
                     "function under its one `@f.register` line", "register a plain def of the module")
            return True
        if isinstance(dec, ast.Call):
            keys = dec.args if len(dec.args) == 1 and not dec.keywords else None
        else:  # the class is the first parameter's annotation
            first = [*node.args.posonlyargs, *node.args.args][:1]
            keys = [first[0].annotation] if first and first[0].annotation is not None else None
        if keys is None or not all(self._dispatch_type(k) for k in keys):
            self.add(dec, "reflection", "a singledispatch implementation is registered for one class, a "
                     f"builtin ({', '.join(sorted(A.DISPATCH_TYPES))}) or a class of the file, never a "
                     "library class, and `register` takes no function", "write @f.register(int) over a def")
        return True

    def _dispatch_type(self, key: ast.expr) -> bool:
        if not isinstance(key, ast.Name):
            return False
        kind, value = self.resolve(key)
        return (kind == "builtin" and key.id in A.DISPATCH_TYPES) or (
            kind == "class" and isinstance(value, ast.ClassDef) and value in self.classes.values())

    def _idiom_decorator(self, node: ast.FunctionDef | ast.ClassDef, dec: ast.expr,
                         name: str | None, where: str) -> bool:
        """The decorators of evaluator.static_idioms: a transparent decorator of the file
        (never on a kernel), functools.wraps on its wrapper, perf_report on a test-only
        function (its Benchmark arguments are checked, not the names)."""
        if isinstance(dec, ast.Name) and where in "fm" and id(node) not in self.kernels:
            kind, value = self.resolve(dec)
            if kind == "def" and id(value) in self.transparent.decorators:
                return True
        if where in "fm" and self._identity_decorator(dec):
            return True  # on a kernel too: it hands back what it is given (static_decorators)
        if id(dec) in self.transparent.wraps:
            self.call_arguments(dec)  # type: ignore[arg-type]
            return True
        if self._dispatch_register(node, dec):
            return True
        if name == PERF_REPORT and id(node) in self.test_only and isinstance(dec, ast.Call):
            for arg in [*dec.args, *(k.value for k in dec.keywords)]:
                for item in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]:
                    if isinstance(item, ast.Call) and self.qualify(item.func) == BENCHMARK:
                        self.call_arguments(item)
                    else:
                        self.expr(item)
            return True
        return False

    def _identity_decorator(self, dec: ast.expr) -> bool:
        """`@deco` or `@deco()` naming, where it stands, the file's identity def or identity
        factory (static_decorators): bound once, at module level."""
        if isinstance(dec, ast.Call):
            if dec.args or dec.keywords or not isinstance(dec.func, ast.Name):
                return False
            kind, value = self.resolve(dec.func)
            return kind == "def" and id(value) in self.transparent.identity_factories
        if isinstance(dec, ast.Name):
            kind, value = self.resolve(dec)
            return kind == "def" and id(value) in self.transparent.identity
        return False
