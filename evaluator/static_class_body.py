"""What a class body of a candidate file may bind (evaluator.static_walk's Checker): literal
constants, dtypes, math constants and calls, a NamedTuple config of the file's, a dataclass
field; never a callable, a method, a dunder or an nn.Module internal."""
from __future__ import annotations

import ast

import torch

from evaluator import static_allowlist as A
from evaluator.static_class_members import class_body_binds
from evaluator.static_expressions import is_dunder, literal


class ClassBodyValues:
    """A mixin of the walk's Checker: it reads the Checker's scopes, resolution and findings."""

    def _class_constant(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if isinstance(node, ast.AnnAssign):
            self.annotation(node.annotation)
        bad = len(names) != len(targets) or any(
            (is_dunder(n) and not self._class_dunder(n, node)) or n in self.methods or n in self.t.module_private
            for n in names)
        if not bad and self._inert_kernel_alias(node, names):
            return  # the kernel's name, never read back: nothing to walk
        if bad or not (node.value is None or self._field(node.value) or self._class_value(node.value)):
            self.add(node, "monkey_patch", "a class body may only bind literal constants to "
                     "new names (never methods, dunders or nn.Module internals)",
                     "define methods with def, and set other values in __init__")
        elif node.value is not None and not literal(node.value):
            self.expr(node.value)  # a math call or a config class: its parts are checked as code

    def _inert_kernel_alias(self, node: ast.Assign | ast.AnnAssign, names: list[str]) -> bool:
        """`kernel = _kernel` in a class body (Triton 2's triton.ops.matmul and blocksparse,
        vendored as they are: honest round s51b), a kernel of the file under a name the file
        never reads back: no attribute of that name anywhere (`C.kernel`, `self.kernel`), no
        string of it (a literal getattr) and no class pattern naming it (`case C(kernel=f)`). Inert, so the kernel is launched, if at all, by
        its own name, where the launch checks see it."""
        if not (isinstance(node, ast.Assign) and len(names) == 1 and isinstance(node.value, ast.Name)
                and self.resolve(node.value)[0] == "kernel"):
            return False
        name, cls = names[0], self.parent.get(id(node))
        # no spelling of the name (static_member_kernels: attributes, strings, class patterns)
        # and no library code that reads it by name (a dataclass's generated methods: rt66)
        return not self._spellings().get(name) and isinstance(cls, ast.ClassDef) and (
            self.no_implicit_reader(cls, name))

    def _property_setter(self, node: ast.FunctionDef | ast.ClassDef, dec: ast.expr) -> bool:
        """`@name.setter` as the only decorator of `def name(self, value)` in a plain class
        (static_walk's `_plain_class`: no bases, its name only called or read from, so nothing
        of nn.Module's or the harness's ever assigns its attributes), `name` bound in that
        class body only by a bare-`@property` def above it: the property idiom of launcher
        and config objects (honest round s50). Attributes are assigned on `self` only, so the
        setter runs where the class's own methods write `self.name = value`."""
        cls = self.parent.get(id(node))
        if not (isinstance(dec, ast.Attribute) and dec.attr == "setter" and isinstance(dec.value, ast.Name)
                and isinstance(node, ast.FunctionDef) and dec.value.id == node.name
                and node.decorator_list == [dec] and isinstance(cls, ast.ClassDef)
                and self._plain_class(cls) and not self._method_read_off(cls)):
            return False
        named = [s for s in cls.body if s is not node and node.name in class_body_binds(s)]
        return len(named) == 1 and isinstance(named[0], ast.FunctionDef) and (
            named[0].lineno < node.lineno and len(named[0].decorator_list) == 1
            and self.qualify(named[0].decorator_list[0]) == "property")

    def _method_read_off(self, cls: ast.ClassDef) -> bool:
        """Whether the file reads a def of `cls` off the class itself (`Launcher.bind(self, v)`
        from another class's method: its `self` is that other object, the model). Red team
        rt53: through an accepted setter `self.to = v` in such a method rebound the model's
        `to`, which the harness calls on the candidate's model, and `forward`."""
        defs = {s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == cls.name
                   and n.attr in defs for n in ast.walk(self.tree))

    def _frozen_field_store(self, node: ast.Attribute) -> bool:
        """`object.__setattr__(self, "field", value)` as a statement of a frozen dataclass's
        __post_init__, "field" one of its annotated fields: the documented way to derive a
        field of a frozen dataclass (a config's block size from its n; honest round s50),
        what its generated __init__ does for every field."""
        call, fn = self.parent.get(id(node)), self.scopes.enclosing_function(node)
        cls = self.parent.get(id(fn.node)) if fn is not None else None
        if not (node.attr == "__setattr__" and isinstance(node.value, ast.Name) and node.value.id == "object"
                and self.resolve(node.value)[0] == "builtin" and isinstance(call, ast.Call)
                and call.func is node and len(call.args) == 3 and not call.keywords
                and isinstance(self.parent.get(id(call)), ast.Expr) and isinstance(cls, ast.ClassDef)
                and fn.node.name == "__post_init__" and self._frozen_dataclass(cls)):  # type: ignore[union-attr]
            return False
        owner, field = call.args[0], call.args[1]
        fields = {s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
        return isinstance(owner, ast.Name) and self.resolve(owner)[0] == "self" and (
            isinstance(field, ast.Constant) and field.value in fields)

    def _frozen_dataclass(self, cls: ast.ClassDef) -> bool:
        return any(isinstance(d, ast.Call) and self.qualify(d.func) == "dataclasses.dataclass" and any(
            k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in d.keywords) for d in cls.decorator_list)

    _MATH_CONSTANTS = frozenset({"math.pi", "math.e", "math.tau", "math.inf", "math.nan"})
    _MATH_FUNCTIONS = frozenset({"math." + n for n in (
        "sqrt", "exp", "log", "log2", "log10", "pow", "erf", "tanh", "sin", "cos", "ceil", "floor")})

    def _class_value(self, node: ast.expr) -> bool:
        """A value a class body may hold: no callable, nothing that runs code of the file's
        but a config class's constructor. Literals, dtypes, math constants and math calls of
        them, arithmetic, containers and dicts of those (`INV_SQRT2 = 1 / math.sqrt(2)`,
        `TL_DTYPE = {torch.float32: tl.float32}`), and an instance of a NamedTuple class the
        file defines above, made of them (`CFG = LaunchCfg(block=2048, num_warps=8)`; honest
        round, session 21). A name bound to a function (`impl = torch.matmul`) stays refused:
        `self.impl(...)` would hide what it calls."""
        return literal(node, self._class_leaf)

    def _class_leaf(self, node: ast.expr) -> bool:
        if self._dtypes(node):
            return True
        if isinstance(node, ast.Attribute):
            return self.qualify(node) in self._MATH_CONSTANTS
        if not isinstance(node, ast.Call):
            return False
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return False
        args = [*node.args, *(k.value for k in node.keywords)]
        if not all(self._class_value(a) for a in args):
            return False
        if self.qualify(node.func) == "enum.auto":  # an Enum member's value
            return not args
        if isinstance(node.func, ast.Attribute):
            return self.qualify(node.func) in self._MATH_FUNCTIONS
        if isinstance(node.func, ast.Name):
            kind, value = self.resolve(node.func)
            return (kind == "class" and isinstance(value, ast.ClassDef)
                    and any(self.qualify(b) == "typing.NamedTuple" for b in value.bases))
        return False

    def _dtypes(self, node: ast.expr) -> bool:
        """A dtype (`torch.float16`, `tl.float32`): `SUPPORTED = (torch.float32, torch.float16)`
        in a class body names constants too."""
        name = self.qualify(node) if isinstance(node, ast.Attribute) else None
        module, _, attr = (name or "").rpartition(".")
        if module not in ("torch", "triton.language"):  # never probe (import) another module
            return False
        if module == "torch":
            return isinstance(getattr(torch, attr, None), torch.dtype)
        if module == "triton.language":
            import triton.language as tl

            return isinstance(getattr(tl, attr, None), tl.dtype)
        return False

    def _field(self, node: ast.expr) -> bool:
        """`dataclasses.field(default=<literal>, default_factory=<builtin>)`, or a factory
        `lambda: <literal>` (a fresh list of block sizes per instance: honest round s37)."""
        return (isinstance(node, ast.Call) and self.qualify(node.func) == "dataclasses.field"
                and not node.args and all(
                    literal(k.value) or self.qualify(k.value) in A.BUILTINS or (
                        k.arg == "default_factory" and isinstance(k.value, ast.Lambda)
                        and not _has_parameters(k.value.args) and literal(k.value.body))
                    for k in node.keywords))


def _has_parameters(args: ast.arguments) -> bool:
    return bool(args.posonlyargs or args.args or args.kwonlyargs or args.vararg or args.kwarg)
