"""Name resolution of a candidate file for the static checks (evaluator.static_expressions).

`Resolver` holds one module's resolution state: Python's scoping (evaluator.static_scopes),
which parameters are privileged (`self` of an instance method, `ctx` of an autograd
Function's forward/backward/setup_context/jvp/vjp, `cls` of a classmethod, held like its
class), which functions are kernels (@triton.jit/autotune/heuristics), and the findings.
`resolve(node)` says what a name is: import/builtin/unbound/self/ctx/class/kernel/
kernel_table/warmed/def/logger/local/expr; `qualify(node)` the dotted name of an attribute chain rooted in an import or
a builtin. The checks themselves are ExpressionChecker's.
"""
from __future__ import annotations

import ast
import builtins
import re
import sys
import types

from common.config.evaluator import StaticConfig
from evaluator import gpu_names
from evaluator import static_allowlist as A
from evaluator.feedback import untrusted
from evaluator.static_decorators import TransparentDecorators
from evaluator.static_idioms import logger_definition, test_only_functions
from evaluator.static_kernel_values import LIBRARY_INSTEAD, KernelValues, jit_calls
from evaluator.static_member_kernels import KERNEL_DECORATORS, MemberKernels
from evaluator.static_namespaces import ATTRIBUTE_ONLY, canonical, denial_code, exists, tables
from evaluator.static_scopes import Binding, Scopes, sole_target
from evaluator.static_warmed import WarmedKernels

# torch.compile's generated files import Inductor's runtime helpers; they are private (and
# hold inline assembly and a grid barrier), and each has a public Triton spelling
INDUCTOR_INSTEAD = ("write the helpers with triton.language (tl.maximum, tl.minimum, tl.where, "
                    "tl.math.*) and libdevice from triton.language.extra.libdevice")

OPS_INSTEAD = ("call torch's public functions (torch.relu, torch.nn.functional.*) and launch your "
               "kernels as kernel[grid](...) from forward; registered ops (torch.ops.*) are not reachable")

BUILTIN_NAMES = frozenset(dir(builtins))
# library classes a module-level alias may name: the `with` context managers (unsloth's
# `torch_cuda_device = torch.cuda.device`)
_ALIASABLE_CLASSES = frozenset({"torch.cuda.device", "torch.autocast", "torch.amp.autocast",
                                "torch.cuda.amp.autocast"}) & A.CONTEXT_MANAGERS
_CTX_METHODS = frozenset({"forward", "backward", "setup_context", "jvp", "vjp"})


def splits_context(tree: ast.Module) -> bool:
    """Whether the file names `setup_context` anywhere. A Function that has one (its own or a
    base's) is applied as `forward(*args)` with no context, then `setup_context(ctx, inputs,
    output)`: forward's first parameter is then whatever `apply` got first (red team s43 handed
    it a kernel object and replaced its `rewrite`), so no forward's is trusted as the context
    and `apply`'s arguments are not mapped past one (static_kernel_values)."""
    return any(isinstance(n, ast.FunctionDef) and n.name == "setup_context"
               or isinstance(n, ast.Name) and n.id == "setup_context"
               or isinstance(n, ast.Attribute) and n.attr == "setup_context"
               or isinstance(n, ast.Constant) and n.value == "setup_context" for n in ast.walk(tree))


class Resolver(MemberKernels, KernelValues, WarmedKernels):
    """Resolution state of one module, its findings, and what its names are."""

    def __init__(self, tree: ast.Module, cfg: StaticConfig, source: str, unjudged: frozenset[str] = frozenset()):
        self.tree, self.cfg, self.t = tree, cfg, tables()
        # names only the arm of an import fallback that never runs would bind (apex's
        # `fused_layer_norm_affine` where apex is absent): unbound, so a NameError if read
        self.unjudged = unjudged
        self.lines = source.encode("utf-8", "surrogatepass").split(b"\n")
        # the lines as Python and linecache (so inspect, so Triton) count them
        self.source_lines = re.split(r"\r\n|\r|\n", source)
        self.scopes = Scopes(tree)
        self.parent = self.scopes.parent
        self.findings: list[tuple[str, str, str, int | None]] = []
        self.fakes: list[ast.AST] = []
        self.in_annotation = 0
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.self_args: set[int] = set()
        self.ctx_args: set[int] = set()
        self.cls_args: dict[int, ast.ClassDef] = {}  # a classmethod's first parameter
        self._aliasing: set[int] = set()  # bindings whose alias is being resolved
        self.methods = set(self.t.module_methods)
        # class name -> its methods whose first parameter is privileged ("self"/"ctx")
        self.privileged: dict[str, dict[str, str]] = {}
        self.kernels: dict[int, ast.FunctionDef] = {}
        # `k = triton.jit(f)`; none while the kernels are being found (qualifying a decorator or
        # a module-level call's callee may ask whether a name bound to a call is a kernel:
        # `M = f(); M.real(1)` and `deco = f(...)` / `@deco` crashed the checker, sessions 35-36)
        self.jit_calls: dict = {}
        self.split_context = splits_context(tree)
        for cls in self.classes.values():
            self._privileged_args(cls)
        self.kernels = {id(n): n for n in self.scopes.functions if isinstance(n, ast.FunctionDef)
                        and any(self._decorator_name(d) in KERNEL_DECORATORS
                                for d in n.decorator_list)}
        self.jit_calls = jit_calls(tree, self.scopes, self.qualify)
        self.kernels.update({id(fn): fn for fn in self.jit_calls.values()})
        self.transparent = TransparentDecorators(tree, self.scopes, self.qualify, self.kernels)
        self.test_only = test_only_functions(tree, self.scopes, self.qualify)

    def add(self, node: ast.AST, code: str, what: str, instead: str | None = None,
            status: str = "hack") -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = f"{'class' if isinstance(node, ast.ClassDef) else 'def'} {node.name}"
        else:
            text = self.snippet(node)
        # the message quotes the candidate's source (names, snippets): it reaches the model as
        # feedback, so a name like Correct_speedup_97x is masked as child text is
        self.findings.append((status, code, untrusted(f"`{text}`: {what}; {instead or A.HINTS[code]}"),
                              getattr(node, "lineno", None)))

    def snippet(self, node: ast.AST) -> str:
        """The node's source text on its first line, at most 60 characters (no unparse:
        quoting a huge node for every finding would make a crafted file quadratic)."""
        line = getattr(node, "lineno", 0)
        if not 0 < line <= len(self.lines):
            return type(node).__name__
        start = node.col_offset
        same = getattr(node, "end_lineno", None) == line and node.end_col_offset is not None
        end = node.end_col_offset if same else start + 240
        text = self.lines[line - 1][start:min(end, start + 240)].decode("utf-8", "ignore")
        text = " ".join(text.split())
        return text if len(text) <= 60 and same else text[:57] + "..."

    # ------------------------------------------------------------------ names
    def resolve(self, node: ast.AST) -> tuple[str, object]:
        """What an expression names: import/builtin/unbound/self/ctx/def/class/local/expr."""
        if not isinstance(node, ast.Name):
            return "expr", None
        scope, bindings = self.scopes.lookup(node)
        if not bindings:
            return ("builtin" if node.id in BUILTIN_NAMES else "unbound"), node.id
        kinds = {(b.kind, b.target) for b in bindings}
        if len(kinds) == 1 and bindings[0].kind == "import":
            return "import", bindings[0].target
        if len(bindings) != 1:
            return "local", scope
        b = bindings[0]
        if b.kind == "param":
            if id(b.node) in self.self_args:
                return "self", None
            if id(b.node) in self.ctx_args:
                return "ctx", None
            if id(b.node) in self.cls_args:
                return "class", self.cls_args[id(b.node)]
        if b.kind == "def" and id(b.node) in self.kernels:
            return "kernel", b.node
        if b.kind in ("def", "class"):
            return b.kind, b.node
        if b.kind == "local" and self.warmed_binding(b):
            return "warmed", b.node  # `k = kernel.warmup(..., grid=...)` (static_warmed)
        if b.kind in ("local", "param") and self.kernel_binding(b, frozenset({id(b)})):
            return "kernel", None  # a kernel held as a value it stays followed as (static_kernel_values)
        if b.kind == "local" and scope is self.scopes.module and self.kernel_table(node):
            return "kernel_table", None
        if scope is self.scopes.module and logger_definition(
                self.parent.get(id(b.node)), self.scopes, self.qualify):
            return "logger", None
        jit = self._jit_alias(b, scope)
        if jit is not None:  # `next_power_of_2 = triton.next_power_of_2`: held like an import
            return "import", jit
        alias = self._class_alias(b, scope)
        return ("class", alias) if alias is not None else ("local", scope)

    def _jit_alias(self, b: Binding, scope: object) -> str | None:
        """The Triton JIT function a module-level `Alias = tl.sum` names (its only binding), an
        importable module (`tl_math = tl.math`), or the context-manager class `torch_cuda_device = torch.cuda.device` names (unsloth; honest
        round, session 22): held like the import, every use checked as the name written out.
        Other classes stay unaliased (test_static_honest: a TensorDescriptor as a value)."""
        assign = self.parent.get(id(b.node))
        if scope is not self.scopes.module or sole_target(assign) is not b.node or id(b) in self._aliasing:
            return None
        self._aliasing.add(id(b))  # `a = b; b = a` names nothing
        name = self.qualify(assign.value)
        self._aliasing.discard(id(b))
        return name if name in self.t.jit_functions or name in _ALIASABLE_CLASSES or (
            self._aliasable_module(name)) else None

    def _aliasable_module(self, name: str | None) -> bool:
        """A module `import NAME as alias` would bind (Inductor's pasted `tl_math = tl.math`;
        honest round s50h): the alias is then that import, each use checked written out.
        Not the attribute-only modules, whose import is refused (static_walk._import), nor a
        listed namespace that is no module (`os.environ`, a mapping: no import binds it)."""
        return name is not None and isinstance(sys.modules.get(name), types.ModuleType) and (
            name in self.t.namespaces) and self.t.importable(
            name, self.cfg.allowed_imports) and not any(
            name == m or name.startswith(m + ".") for m in ATTRIBUTE_ONLY)

    def _class_alias(self, b: Binding, scope: object) -> ast.ClassDef | None:
        """The class a module-level `Alias = SomeClass` names (one level, no chains)."""
        assign = self.parent.get(id(b.node))
        if scope is not self.scopes.module or sole_target(assign) is None or (
                not isinstance(assign.value, ast.Name)):
            return None
        target = self.scopes.single(assign.value)
        return target.node if target is not None and target.kind == "class" else None

    def qualify(self, node: ast.AST) -> str | None:
        """Dotted name of a pure attribute chain rooted in an import or a builtin."""
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return canonical(f"{base}.{node.attr}") if base else None
        kind, value = self.resolve(node)
        return canonical(value) if kind in ("import", "builtin") else None  # type: ignore[arg-type]

    def _decorator_name(self, node: ast.AST) -> str | None:
        return self.qualify(node.func if isinstance(node, ast.Call) else node)

    def _privileged_args(self, cls: ast.ClassDef) -> None:
        is_function = self._is_autograd_function(cls, set())
        bound_only = self._bound_only(cls)
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            self.methods.add(fn.name)
            first = [*fn.args.posonlyargs, *fn.args.args][:1]
            marks = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
            if first and "classmethod" in marks:  # `cls` is the class, held like its name
                self.cls_args[id(first[0])] = cls
            if not first or "classmethod" in marks:
                continue
            if is_function and fn.name in _CTX_METHODS and not (fn.name == "forward" and self.split_context):
                # torch calls them with ctx first, @staticmethod or not: a plain `def
                # forward(self, x)` of a Function is handed the ctx, not an instance
                self.ctx_args.add(id(first[0]))
                self.privileged.setdefault(cls.name, {})[fn.name] = "ctx"
            elif "staticmethod" not in marks and bound_only:
                self.self_args.add(id(first[0]))
                self.privileged.setdefault(cls.name, {})[fn.name] = "self"

    def _bound_only(self, cls: ast.ClassDef) -> bool:
        """Whether every method of `cls` is only ever called on an instance of it, so its
        first parameter can be trusted as `self`: no class of the file that `cls` inherits
        from or that inherits from it (a method is looked up through its subclasses too)
        has a base other than `object`, nn.Module, autograd.Function or the file's own
        classes. Other library bases have machinery that calls methods unbound with an
        object it chose (Enum calls `cls._missing_(value)`: a plain `def _missing_(self)`
        gets the looked-up value as its `self`, also when it is defined on an `object`
        mixin and the Enum is a subclass), so their methods' first parameter is plain."""
        return self._families()[cls.name]

    def _families(self) -> dict[str, bool]:
        """Class name -> whether every class of the file it is connected to by inheritance, in
        either direction (its ancestors, descendants and theirs: a superset of the family
        above, so stricter), has trusted bases of its own. Once per file, by union-find: the
        family per class, walked per class, was cubic in a chain of classes (red team s36:
        10,000 `class b(a)` lines held a worker for good)."""
        found = self.__dict__.get("_family_trust")
        if found is not None:
            return found
        root = {name: name for name in self.classes}

        def find(name: str) -> str:
            while root[name] != name:
                root[name] = root[root[name]]
                name = root[name]
            return name

        for cls in self.classes.values():
            for b in cls.bases:
                base = self.file_class(b)
                if base is not None:
                    root[find(base)] = find(cls.name)
        trusted: dict[str, bool] = {}
        for name, cls in self.classes.items():
            top = find(name)
            trusted[top] = trusted.get(top, True) and self._own_bases_trusted(cls)
        found = self.__dict__["_family_trust"] = {name: trusted[find(name)] for name in self.classes}
        return found

    def file_class(self, base: ast.expr) -> str | None:
        """The name of the file's class a base names, as `_base` accepts it: the class, or a
        module-level alias of it (`P = Plain; class Look(P, enum.Enum)`: read by spelling, the
        alias linked no family, and Plain's `_missing_` got a trusted `self` that Enum calls
        with any value, red team s38)."""
        if not isinstance(base, ast.Name):
            return None
        kind, value = self.resolve(base)
        return value.name if kind == "class" and self.classes.get(getattr(value, "name", None)) is value else None

    def _own_bases_trusted(self, cls: ast.ClassDef) -> bool:
        # abc.ABC and typing.Protocol (session 51c) call no method of the class with an object
        # they chose: ABCMeta asks __subclasshook__ (a dunder, refused in the file) and its
        # registry; a Protocol's replaced __init__ runs the class's own on the new instance
        trusted = {"object", "torch.nn.Module", "torch.autograd.Function", *A.LEAF_MODULE_BASES,
                   *A.INTERFACE_BASES}
        return all(self.file_class(b) is not None or self.qualify(b) in trusted
                   for b in cls.bases) and all(k.arg != "metaclass" for k in cls.keywords)

    def _is_autograd_function(self, cls: ast.ClassDef, seen: set) -> bool:
        seen.add(cls.name)
        for base in cls.bases:
            if self.qualify(base) == "torch.autograd.Function":
                return True
            if isinstance(base, ast.Name) and base.id in self.classes and base.id not in seen:
                if self._is_autograd_function(self.classes[base.id], seen):
                    return True
        return False

    def _deny_name(self, node: ast.AST, full: str) -> None:
        if gpu_names.lacks(full):
            self.add(node, "unknown_api", f"{full} does not exist in the GPU image's libraries "
                     f"({gpu_names.versions()}), whatever this machine's have",
                     "use only names both have", status="compile_error")
            return
        if not exists(full):
            self.add(node, "unknown_api", f"{full} does not exist in the installed "
                     f"{full.split('.')[0]}", A.REMOVED_API.get(
                         full, "use only names torch and triton provide"), status="compile_error")
            return
        code = denial_code(full)
        reason = ("a module the allowlist leaves out" if full in self.t.reexported
                  else "private" if code == "reflection" else "not on the allowlist")
        head = full.split(".")[:2]
        self.add(node, code, f"{full} is {reason}",
                 LIBRARY_INSTEAD if head == ["torch", "library"] else OPS_INSTEAD if head == ["torch", "ops"]
                 else INDUCTOR_INSTEAD if head == ["torch", "_inductor"] else None)
