"""Kernels kept in a class, where the checker can still follow them (honest rounds s23, s50).

A kernel defined in a class body is an attribute of the class: read as a value (`K.k.fn`,
`self.k.cache`, `getattr(obj, "k")`) it hands out Triton's internals, and a subclass, an
instance or a store could put something else under its name. Two shapes are accepted, each
a `@staticmethod` whose other decorators are kernel decorators:
  - a kernel namespace, `class K:` holding only such kernels (some repos group kernels so),
    whose name is only ever used as `K.kernel[grid](...)` statements: nothing reaches the
    class or its kernels as values (no instance, no `K.kernel.fn`), so it is the
    module-level kernel under a longer name (honest round, session 23);
  - member kernels of a class that has other members too (vLLM's JIT-kernel classes with a
    `@classmethod` launcher, an autograd.Function holding the kernels its forward launches:
    honest round s49, session 50). The class is at module level, undecorated, with no
    keyword and no base but object, nn.Module or autograd.Function (a class of the file
    would carry methods reading the name on its own `cls`), and no class of the file
    subclasses it; a member kernel's name is no dunder and nothing nn.Module or Function
    has. Every mention of the name as an attribute anywhere in the file (outside a
    module's or builtin's chain) is a launch statement `C.kernel[grid](...)` with `C` the
    class by its name, a module-level alias of it, or the `cls` of one of its own methods
    decorated with the builtin @classmethod alone; no string of the file spells the name
    and no class pattern reads it. `self.kernel` stays refused (an instance's dict comes
    first: `setattr(self, "k", v)` would shadow it), as does any kernel handed on.
Why `C.kernel` is the kernel: the class is bound once and never rebound (Checker._bindings),
a class attribute is never assigned (static_stores), a class body binds no callable and no
method's name (static_class_body), a kernel's name is rebound in no scope, metaclasses and
class decorators are refused, and with no subclass `cls` is the class itself (a classmethod
is bound to the class it is read from, or an instance's type, which is the class).
"""
from __future__ import annotations

import ast
import functools

from evaluator.static_stores import is_dunder

KERNEL_DECORATORS = frozenset({"triton.jit", "triton.autotune", "triton.heuristics"})
# the bases a class holding member kernels may have: none of them reads a class attribute
# through a metaclass of its own (autograd.Function's FunctionMeta only adds a backward class)
_HOST_BASES = frozenset({"object", "torch.nn.Module", "torch.autograd.Function"})


@functools.lru_cache(maxsize=None)
def _host_attributes() -> frozenset[str]:
    """Every attribute name nn.Module or autograd.Function has (a member kernel by one of
    these names would be what torch calls: `forward`, `apply`, `backward`)."""
    import torch

    return frozenset({*dir(torch.nn.Module), *dir(torch.autograd.Function), "training"})


class MemberKernels:
    """Which kernels a class may hold (a mixin of Resolver)."""

    def kernel_namespace(self, cls: ast.AST | None) -> bool:
        """A module-level class with no base, keyword or decorator whose body is a docstring
        and @staticmethod kernels, every use of its name a launch of one of them as a
        statement (the class is bound once: Checker._bindings)."""
        if not isinstance(cls, ast.ClassDef) or self.parent.get(id(cls)) is not self.tree or (
                cls.bases or cls.keywords or cls.decorator_list):
            return False
        body = cls.body[1:] if isinstance(cls.body[0], ast.Expr) and isinstance(
            cls.body[0].value, ast.Constant) and isinstance(cls.body[0].value.value, str) else cls.body
        kernels = {fn.name for fn in body if isinstance(fn, ast.FunctionDef) and id(fn) in self.kernels
                   and fn.decorator_list and isinstance(fn.decorator_list[0], ast.Name)
                   and fn.decorator_list[0].id == "staticmethod"
                   and self.resolve(fn.decorator_list[0])[0] == "builtin"}
        if not body or len(kernels) != len(body):
            return False
        for node in self._names().get(cls.name, ()):
            attr = self.parent.get(id(node))
            if not (isinstance(node.ctx, ast.Load) and self.resolve(node) == ("class", cls)
                    and isinstance(attr, ast.Attribute) and attr.value is node and attr.attr in kernels
                    and _launched(self.parent, attr)):
                return False
        return True

    def member_kernel_refusal(self, fn: ast.FunctionDef) -> tuple[ast.AST, str] | None:
        """Why a kernel defined in a class body is not one of its member kernels (the node to
        name and what is wrong), or None where it is."""
        cls = self.parent.get(id(fn))
        if not isinstance(cls, ast.ClassDef):
            return fn, "a kernel defined inside a function is an object whose internals its owner can reach"
        if not self.kernel_host(cls):
            return fn, (f"a kernel kept in class {cls.name}, which has a decorator, a keyword, a "
                        "subclass or a base other than nn.Module or autograd.Function, could be "
                        "something else under its name")
        if id(fn) not in self.member_kernels(cls):
            return fn, ("a kernel in a class is a @staticmethod whose other decorators are "
                        "triton.jit/autotune/heuristics, named nothing nn.Module or "
                        "autograd.Function has")
        stray = self._stray_member_use(fn.name)
        if stray is not None:
            return fn, (f"the kernel {cls.name}.{fn.name} is reached at line "
                        f"{getattr(stray, 'lineno', '?')} other than by a launch statement on "
                        f"its class (`{self.snippet(stray)}`), which could hand out its internals")
        return None

    def kernel_host(self, cls: ast.ClassDef) -> bool:
        """A module-level class with no decorator or keyword, on no base but object, nn.Module
        or autograd.Function, that no class of the file subclasses."""
        hosts = self.__dict__.setdefault("_kernel_hosts", {})
        if id(cls) not in hosts:
            hosts[id(cls)] = (self.parent.get(id(cls)) is self.tree and not cls.decorator_list
                              and not cls.keywords and all(self.qualify(b) in _HOST_BASES for b in cls.bases)
                              and cls.name not in self._subclassed())
        return hosts[id(cls)]

    def _subclassed(self) -> frozenset[str]:
        """Names of the file's classes some class of the file names as a base, gathered once."""
        found = self.__dict__.get("_subclassed_names")
        if found is None:
            found = self.__dict__["_subclassed_names"] = frozenset(
                name for c in self.tree.body if isinstance(c, ast.ClassDef)
                for name in map(self.file_class, c.bases) if name is not None)
        return found

    def member_kernels(self, cls: ast.ClassDef) -> dict[int, str]:
        """id(def) -> name, for each kernel of the class's body that is a `@staticmethod` (the
        builtin) first and then only kernel decorators, by a name no dunder and nothing
        nn.Module or autograd.Function has."""
        known = self.__dict__.setdefault("_member_kernels", {})
        if id(cls) in known:  # asked by every attribute read off the class
            return known[id(cls)]
        found = known[id(cls)] = {}
        for fn in cls.body:
            if not (isinstance(fn, ast.FunctionDef) and id(fn) in self.kernels and fn.decorator_list):
                continue
            first, rest = fn.decorator_list[0], fn.decorator_list[1:]
            if (isinstance(first, ast.Name) and first.id == "staticmethod"
                    and self.resolve(first) == ("builtin", "staticmethod")
                    and all(self._decorator_name(d) in KERNEL_DECORATORS for d in rest)
                    and not is_dunder(fn.name) and fn.name not in _host_attributes()):
                found[id(fn)] = fn.name
        return found

    def member_launch(self, attr: ast.Attribute) -> bool:
        """`C.kernel[grid](...)` as a statement: C names a kernel host of the file (its name, a
        module-level alias, or the `cls` of one of its plain classmethods) and `kernel` is
        one of its member kernels."""
        if not (isinstance(attr.ctx, ast.Load) and isinstance(attr.value, ast.Name)
                and _launched(self.parent, attr)):
            return False
        kind, cls = self.resolve(attr.value)
        if kind != "class" or not isinstance(cls, ast.ClassDef) or not self.kernel_host(cls) or (
                attr.attr not in self.member_kernels(cls).values()):
            return False
        b = self.scopes.single(attr.value)
        return b is not None and (b.kind != "param" or self._plain_classmethod(b.node, cls))

    def _plain_classmethod(self, arg: ast.AST, cls: ast.ClassDef) -> bool:
        """Whether `arg` is the first parameter of a method of `cls` decorated with the builtin
        @classmethod alone (a wrapper decorator could call it with another class)."""
        scope = self.scopes.of_node.get(id(arg))
        fn = scope.node if scope is not None else None
        if not isinstance(fn, ast.FunctionDef) or self.parent.get(id(fn)) is not cls or len(fn.decorator_list) != 1:
            return False
        mark = fn.decorator_list[0]
        return isinstance(mark, ast.Name) and self.resolve(mark) == ("builtin", "classmethod")

    def _stray_member_use(self, name: str) -> ast.AST | None:
        """The first place the file reaches attribute `name` other than by a member launch:
        an attribute (but of a module's or builtin's chain, `torch.add`), a string spelling it
        (`getattr(obj, "k")`), a class pattern's keyword (`case C(k=v)`). Memoized by name:
        every class's `_k` asks the same question (2,000 classes ran past the budget)."""
        known = self.__dict__.setdefault("_strays", {})
        if name not in known:
            known[name] = next((node for node in self._spellings().get(name, ()) if not (
                isinstance(node, ast.Attribute) and (
                    self.member_launch(node) or self.qualify(node.value) is not None))), None)
        return known[name]

    def _spellings(self) -> dict[str, list[ast.AST]]:
        """Every attribute node, string constant and class pattern of the file by the name it
        spells, gathered once (each member kernel asks)."""
        found = self.__dict__.get("_all_spellings")
        if found is None:
            found = self.__dict__["_all_spellings"] = {}
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Attribute):
                    found.setdefault(node.attr, []).append(node)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.setdefault(node.value, []).append(node)
                elif isinstance(node, ast.MatchClass):
                    for key in node.kwd_attrs:
                        found.setdefault(key, []).append(node)
        return found


def _launched(parent: dict[int, ast.AST], attr: ast.Attribute) -> bool:
    """`attr[grid](...)` as an expression statement."""
    sub = parent.get(id(attr))
    launch = parent.get(id(sub))
    return isinstance(sub, ast.Subscript) and sub.value is attr and isinstance(launch, ast.Call) and (
        launch.func is sub and isinstance(parent.get(id(launch)), ast.Expr))
