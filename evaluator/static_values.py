"""How a value of a candidate file may be used, the part of evaluator.static_expressions'
checks that keeps a file from telling the CPU check's machine from the GPU image's by what its
values are rather than what they compute: an identity comparison needs a singleton side (a
stand-in object is never the GPU's object); a library class is only called, tested or read for
its members, and its attributes only called (the CPU child patches some: `repr` of one told
the machines apart); a str never carries a code point whose Unicode data Python 3.11 and 3.12
disagree on (evaluator.static_unicode), through a literal, a format spec or a type's text.
A mixin of ExpressionChecker: `self` is the whole checker."""
from __future__ import annotations

import ast
import string

from evaluator import gpu_names, static_unicode
from evaluator import static_allowlist as A
from evaluator.static_stores import is_dunder

_CLASS_TAKERS = frozenset({"isinstance", "issubclass", "super"})


class ValueUses:
    def _e_Compare(self, node: ast.Compare) -> None:
        """`a is b` only where one side is a singleton: None, True, False, Ellipsis, a library's
        dtype or enum member, an enum member of the file, or the file's own def, kernel or class.
        Anything else's identity tells how the process made the object, not what it computes:
        3.12 hashes a slice, so `typing.Literal[slice(0, 1)]` came from typing's cache (the same
        object each time) on the GPU and was made anew on the CPU check's 3.11 (session 48); a
        stand-in of the CPU child keeps one object where the GPU's library makes a new one on
        each read (red team rt25)."""
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:]):
            if isinstance(op, (ast.Is, ast.IsNot)) and not (self._singleton(left) or self._singleton(right)):
                self.add(node, "identity", "`is` compares objects by identity, which tells how the process "
                         "made them (a cache, a stand-in, the interpreter's version), not what they hold",
                         "compare with == (keep `is` for None, True/False, dtypes and enum members)",
                         status="compile_error")
                break
        for side in sides:
            self.expr(side)

    def _singleton(self, node: ast.expr) -> bool:
        """Whether `node` names an object of which there is one: None, True, False, Ellipsis, a
        library dtype or enum member, an enum member of the file, a def, kernel or class of the file."""
        import enum

        if isinstance(node, ast.Constant):
            return node.value is None or node.value is Ellipsis or isinstance(node.value, bool)
        if isinstance(node, ast.Name):
            kind = self.resolve(node)[0]
            if kind in ("def", "kernel", "class"):
                return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and self._file_enum(node.value):
            return True  # `Mode.FAST` of the file's enum
        name = self.qualify(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        if name is None or "." not in name:
            return False
        import torch
        import triton.language as tl

        value = gpu_names.library_object(name)
        return isinstance(value, (torch.dtype, tl.dtype, enum.Enum))

    def _e_FormattedValue(self, node: ast.FormattedValue) -> None:
        why = static_unicode.fstring_spec_refusal(node.format_spec)  # type: ignore[arg-type]
        if why is not None:
            self.add(node, static_unicode.CODE, why + ", which the CPU check's Python and the GPU's "
                     "read apart for some numbers", "format numbers as digits (d, x, f) with a literal spec",
                     status="compile_error")
        self.expr(node.value)
        if node.format_spec is not None:
            self.expr(node.format_spec)

    def _class_use(self, node: ast.expr, parent: ast.AST | None) -> bool:
        """Where a class (the file's or a library's) may appear: C(...), C.attr,
        isinstance(x, C), `case C(...):`, super(C, self), a type annotation, and `Alias = C` at module
        level for a class of the file. Anywhere else it could be bound to a name whose
        methods then run with any object as `self`, or whose attributes get replaced. In
        isinstance and issubclass it is the class tested against, never the object tested: that
        object is the class itself handled as a value, its type and bases asked (a CPU child's
        torch.device is a stand-in class, so `issubclass(torch.device, torch.device)` was False
        there and True on the GPU: red team rt25's class, session 48)."""
        if self.in_annotation and self._type_expression(node) or self._type_expression(node, cast=True):
            return True
        if isinstance(parent, ast.Tuple):
            node, parent = parent, self.parent.get(id(parent))
            return isinstance(parent, ast.Call) and parent.func is not node and (
                self.qualify(parent.func) in _CLASS_TAKERS) and not self._tested_object(node, parent)
        if isinstance(parent, ast.Call):
            return parent.func is node or self.qualify(parent.func) in _CLASS_TAKERS and not (
                self._tested_object(node, parent))
        if isinstance(parent, ast.Attribute):
            return parent.value is node
        if isinstance(parent, ast.MatchClass):  # `case C(attr=x):` tests isinstance (static_walk)
            return parent.cls is node
        if isinstance(parent, ast.Assign) and isinstance(node, ast.Name):
            direct, alias = self.scopes.single(node), parent.targets[0]
            return isinstance(alias, ast.Name) and len(parent.targets) == 1 and (
                isinstance(self.parent.get(id(parent)), ast.Module)) and (
                direct is not None and direct.kind == "class") and (
                len(self.scopes.module.names.get(alias.id, ())) == 1)
        return False

    def _tested_object(self, node: ast.expr, call: ast.Call) -> bool:
        """Whether `node` is what isinstance/issubclass tests (their first argument), not the
        class it is tested against."""
        return self.qualify(call.func) in ("isinstance", "issubclass") and (
            not call.args or node is call.args[0] or any(isinstance(a, ast.Starred) for a in call.args)
            or any(k.value is node for k in call.keywords))

    def _str_use(self, node: ast.Name, parent: ast.AST | None) -> bool:
        """Where the builtin str may appear: called with at most one argument (`str(b,
        "utf-8")` decodes), its attributes read (their own rules), as a type (isinstance's
        class, an annotation, typing.cast), as `map(str, xs)`'s function or a `key=str`: never
        where something could call it with an encoding (`map(str, bs, encodings)`)."""
        if isinstance(parent, ast.Call) and parent.func is node:
            return len(parent.args) <= 1 and not parent.keywords and not any(
                isinstance(a, ast.Starred) for a in parent.args)
        if isinstance(parent, ast.Attribute) and parent.value is node or self.in_annotation:
            return True
        if isinstance(parent, ast.keyword):
            return parent.arg == "key"
        if isinstance(parent, ast.Call) and len(parent.args) == 2 and parent.args[0] is node and not parent.keywords and (
                isinstance(parent.func, ast.Name) and parent.func.id == "map" and self.resolve(parent.func)[0] == "builtin"):
            return not isinstance(parent.args[1], ast.Starred)
        return self._class_use(node, parent)

    def _type_as_text(self, node: ast.Name, call: ast.AST | None) -> bool:
        """`f"got {type(x)}"`, `type(x).__name__`, `str(type(x))`: a class only ever turned into text."""
        if not (isinstance(call, ast.Call) and call.func is node and len(call.args) == 1
                and not call.keywords and not isinstance(call.args[0], ast.Starred)):
            return False
        outer = self.parent.get(id(call))
        # str(type(x)), repr(type(x)), print(..., type(x)): text too (honest round s45)
        text_call = isinstance(outer, ast.Call) and call in outer.args and isinstance(outer.func, ast.Name) and (
            outer.func.id in ("str", "repr", "print")) and self.resolve(outer.func)[0] == "builtin" and (
            outer.func.id == "print" or len(outer.args) == 1 and not outer.keywords)
        return text_call or isinstance(outer, ast.FormattedValue) and outer.value is call or (
            isinstance(outer, ast.Attribute) and outer.value is call
            and outer.attr in A.NAME_ATTRIBUTES and isinstance(outer.ctx, ast.Load))

    def _class_attribute_use(self, ns: str, node: ast.Attribute) -> bool:
        """How an attribute of a library class may be read: called at once (`torch.Tensor.add(x,
        y)`, `TensorDescriptor.from_tensor(...)`), asked for by hasattr, or a member of the class
        itself (an enum's, `tl.PropagateNan.ALL`); a dunder is the attribute rules' (`__init__`
        called on self, `__name__`). Anything else hands the object the class holds to the file
        (`repr(torch.Tensor.is_cuda)`: `<property object ...>` in a CPU child, `<attribute
        'is_cuda' of 'torch._C.TensorBase' objects>` on the GPU; red team rt25, session 48)."""
        if not isinstance(node.ctx, ast.Load) or is_dunder(node.attr) or self._called(node):
            return True
        call = self.parent.get(id(node))
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "hasattr" and (
                self.resolve(call.func)[0] == "builtin"):
            return True
        import inspect

        cls = gpu_names.library_class(ns)
        return cls is not None and isinstance(inspect.getattr_static(cls, node.attr, None), cls)

    def _file_enum(self, name: ast.expr, seen: frozenset[int] = frozenset()) -> bool:
        """Whether `name` is a class of the file derived from an enum base (A.ENUM_BASES)."""
        kind, cls = self.resolve(name)
        return kind == "class" and isinstance(cls, ast.ClassDef) and id(cls) not in seen and any(
            (self.qualify(base) or "") in A.ENUM_BASES or self._file_enum(base, seen | {id(cls)})
            for base in cls.bases)

    def _enum_class(self, func: ast.expr, seen: frozenset[int] = frozenset()) -> bool:
        """Whether `func` names enum.Enum, enum.IntEnum or a class of the file derived from them
        (through any number of classes of the file: a depth cap of 8 let the functional API of
        a tenth memberless subclass build a class with dunder methods, red team s51e)."""
        if (self.qualify(func) or "") in A.ENUM_CLASSES:
            return True
        kind, cls = self.resolve(func)
        return kind == "class" and isinstance(cls, ast.ClassDef) and id(cls) not in seen and any(
            self._enum_class(base, seen | {id(cls)}) for base in cls.bases)

    def _format(self, node: ast.Attribute) -> None:
        """str.format follows `{0.attr}` fields through getattr, those nested in a format
        spec (`{0:{1.attr}}`) too: only a literal whose fields are flat."""
        receiver = node.value
        if not (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)):
            self.add(node, "reflection", "format on a computed string can read any attribute",
                     "use an f-string")
        elif _reads_attribute(receiver.value):
            self.add(node, "reflection", "a format field reads an attribute",
                     "use an f-string")
        elif static_unicode.template_refusal(receiver.value) is not None:
            self.add(node, static_unicode.CODE, f"{static_unicode.template_refusal(receiver.value)}, which the "
                     "CPU check's Python and the GPU's read apart for some numbers",
                     "format numbers as digits (d, x, f) with a literal spec", status="compile_error")


def _reads_attribute(template: str) -> bool:
    """Whether a str.format template has a field, at any nesting, that reads an attribute."""
    return any(field and "." in field or spec and _reads_attribute(spec)
               for _, field, spec, _ in string.Formatter().parse(template))
