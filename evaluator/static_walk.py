"""The walk behind evaluator.static_checks: every statement of a candidate file, in order.

One recursive pass over the whole module: module level, every function and method,
__init__, decorators, default arguments, annotations, lambdas and comprehensions.
Statements are dispatched by node type to a handler here, expressions to
evaluator.static_expressions; a node type without a handler is rejected, so a
construct nobody thought about fails closed. What is allowed is the data of
evaluator.static_allowlist.
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A
from evaluator import static_mangling, static_unicode
from evaluator.feedback import untrusted
from evaluator.static_class_body import ClassBodyValues
from evaluator.static_decorator_checks import DecoratorChecks
from evaluator.static_expressions import ExpressionChecker, is_dunder
from evaluator.static_match import MatchStatements
from evaluator.static_names import BUILTIN_NAMES

DRIVER_IMPORT = "triton.runtime.driver"
TRY_HINT = ("at module level, try only imports, device queries, version and environment reads, "
            "and builtins, str methods, torch.finfo/iinfo/device of these; compute with tensors "
            "after the try")
from evaluator.static_namespaces import ATTRIBUTE_ONLY, denial_code
from evaluator.static_scope_declarations import ScopeDeclarations
from evaluator.static_scopes import is_main_guard, sole_target
from evaluator.static_settings import (
    allocator_setting,
    logging_setup,
    precision_switch,
    seed_setting,
    warning_filter,
)
from evaluator.static_try import Settled
from evaluator.static_with import WithStatements


class Checker(MatchStatements, WithStatements, ClassBodyValues, ScopeDeclarations, DecoratorChecks,
              ExpressionChecker):
    """Findings of one module; `run()` fills `findings` as (status, code, message, line)."""

    def run(self) -> None:
        self._bindings()
        for node in self.tree.body:
            if is_main_guard(node):  # a test block: never runs (static_allowlist, "test block")
                self.expr(node.test)
                continue
            self.stmt(node)
        for node, what, instead in static_unicode.literal_findings(self.tree):
            self.add(node, static_unicode.CODE, what, instead, status="compile_error")
        for node, what in static_mangling.mangled_findings(self.tree):
            self.add(node, static_mangling.CODE, what, static_mangling.INSTEAD)

    def _bindings(self) -> None:
        """An imported name, a class and a kernel are bound once; dunder names are never
        bound; no module-level name shadows a builtin that is not free (BUILTINS)."""
        scopes = [self.scopes.module, *(s for key, s in self.scopes.inner.items()
                                        if not self._in_test_only(s))]
        for scope in {id(s): s for s in scopes}.values():
            for name, bindings in scope.names.items():
                imports = {b.target for b in bindings if b.kind == "import"}
                # a second binding makes the name a plain local to the checker, while
                # the class or kernel stays what it names wherever that binding never ran
                held = [b for b in bindings if b.kind == "class" or id(b.node) in self.kernels]
                if held and _same_kernel_repeated(bindings, self.kernels):
                    held = []  # one kernel, written out twice (an LLM repeating itself): one meaning
                for b in bindings:
                    if imports and (b.kind != "import" or len(imports) > 1):
                        self.add(b.node, "monkey_patch", f"rebinds the imported name {name}",
                                 "give the new value a name of its own")
                    elif held and len(bindings) > 1 and b is not held[0]:
                        self.add(b.node, "monkey_patch", f"rebinds {name}, the name of a "
                                 f"{'class' if held[0].kind == 'class' else 'kernel'}",
                                 "give the new value a name of its own")
                    elif is_dunder(name) and b.kind != "def" and not (  # defs: _s_FunctionDef
                            scope is self.scopes.module and self._module_dunder(name, b)) and not (
                            self._class_dunder(name, self.parent.get(id(b.node)))):  # type: ignore[attr-defined]
                        self.add(b.node, "reflection", f"binds the dunder name {name}",
                                 "use an ordinary name")
                    elif scope is self.scopes.module and name in BUILTIN_NAMES and (
                            name not in A.BUILTINS or name in A.NEVER_REBOUND_BUILTINS):
                        # a global the module has not bound (yet, or ever: `if False:`,
                        # `del`) is the builtin, whatever the binding the checker saw
                        self.add(b.node, "reflection", f"binds the builtin name {name} at "
                                 f"module level, where it is still the builtin {name} until "
                                 "(and unless) the binding runs", "give it a name of its own")

    def _in_test_only(self, scope: object) -> bool:
        while scope is not None:
            if id(scope.node) in self.test_only:  # type: ignore[attr-defined]
                return True
            scope = scope.parent  # type: ignore[attr-defined]
        return False

    def _class_dunder(self, name: str, assign: ast.AST | None) -> bool:
        """`__constants__ = ["eps"]` in a class body: a CLASS_DUNDERS name bound to literal
        strings; `__slots__ = ("block", "num_warps")` so too, in a plain class only, its slots
        plain names (a launcher object's fixed attributes: honest round s50)."""
        value, cls = getattr(assign, "value", None), self.parent.get(id(assign))
        texts = isinstance(value, (ast.List, ast.Tuple, ast.Set)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)
        if name == "__slots__":
            return texts and isinstance(cls, ast.ClassDef) and isinstance(sole_target(assign), ast.Name) and (
                self._plain_class(cls)) and all(e.value.isidentifier() and not e.value.startswith("__")
                                                for e in value.elts)  # type: ignore[union-attr]
        return name in A.CLASS_DUNDERS and isinstance(sole_target(assign), ast.Name) and (
            isinstance(cls, ast.ClassDef)) and texts

    def _module_dunder(self, name: str, b: object) -> bool:
        """`__all__ = ["ModelNew", ...]`: a MODULE_DUNDERS name bound to literal strings."""
        assign = self.parent.get(id(b.node))  # type: ignore[attr-defined]
        value = getattr(assign, "value", None)
        texts = isinstance(value, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)
        text = isinstance(value, ast.Constant) and isinstance(value.value, str)  # `__version__ = "0.1"`
        return name in A.MODULE_DUNDERS and sole_target(assign) is b.node and (  # type: ignore[attr-defined]
            isinstance(self.parent.get(id(assign)), ast.Module)) and (
            texts or (text and name in A.MODULE_TEXT_DUNDERS))

    # ------------------------------------------------------------------ statements
    def stmt(self, node: ast.stmt) -> None:
        handler = getattr(self, "_s_" + type(node).__name__, None)
        at_module = self.parent.get(id(node)) is self.tree
        if precision_switch(node, at_module, self.qualify) or warning_filter(
                node, at_module, self.scopes, self.qualify) or seed_setting(
                node, at_module, self.qualify) or logging_setup(node, at_module, self.qualify):
            return  # a literal switch, filter, seed or log setup at import (evaluator.static_settings)
        if allocator_setting(node, self.scopes, self.qualify):
            self.expr(node.value.args[0])  # type: ignore[attr-defined]  (a stateless allocator)
            return
        if isinstance(node, (ast.Try, ast.TryStar)) and isinstance(
                self.parent.get(id(node)), ast.Module):
            self._module_try(node)  # runs once, at import (evaluator.static_idioms)
            return
        if handler is None:
            what = {"Try": "try/except", "TryStar": "try/except*"}.get(type(node).__name__)
            if what:
                self.add(node, "try_except", f"{what} is not allowed: a kernel must not fall "
                         "back to other code when it fails")
                for child in ast.iter_child_nodes(node):
                    self._any(child)
                return
            self.add(node, "forbidden_syntax", f"{type(node).__name__} statements are not "
                     "allowed (no async or match)")
            return
        handler(node)

    def enclosing_def(self, node: ast.AST) -> ast.AST | None:
        """The function (or the module) a statement is in."""
        fn = self.parent.get(id(node))
        while fn is not None and not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            fn = self.parent.get(id(fn))
        return fn

    def _module_try(self, node: ast.Try | ast.TryStar) -> None:
        """A try at module level (evaluator.static_idioms): its body may not reach the file's
        own functions, classes or lambdas (a recursion of its own could interrupt a library
        call half-way, at a depth it chose, and carry on), it computes only what answers alike
        on the CPU check and on the GPU (evaluator.static_try: what raises on one machine and
        not the other is a switch its handler reads; red team s46), and a handler binds no
        name (an exception hands out what the library put in it: AttributeError.obj, args)."""
        if isinstance(node, ast.TryStar):
            # its handlers see the group the body's error was wrapped in, not the error, which
            # the resource check they run first reads (red team rt58: a MemoryError under the
            # CPU sandbox's limit switched the file through `except* Exception:`)
            self.add(node, "try_except", "try/except* is not allowed: a module-level try may "
                     "only use plain except clauses", TRY_HINT)
        settled = Settled(self)
        for stmt in node.body:
            bad = settled.statement(stmt)
            if bad is None:
                continue
            own = [sub for sub in ast.walk(bad) if isinstance(sub, ast.Lambda) or (
                isinstance(sub, ast.Name) and self.resolve(sub)[0] in ("def", "class", "kernel"))]
            if own:
                self.add(own[0], "try_except", "the body of a module-level try reaches code of the "
                         "file (a function, class or lambda)", TRY_HINT)
            elif isinstance(bad, ast.stmt):
                self.add(bad, "try_except", f"a module-level try runs a {type(bad).__name__} "
                         "statement", TRY_HINT)
            elif isinstance(bad, ast.Call):
                self.add(bad, "try_except", "a module-level try calls something that can answer "
                         "otherwise on the CPU check than on the GPU (a tensor op, a kernel launch, a "
                         "library call outside the recorded device image, a call of the file's own), "
                         "so its handler could pick a path the CPU never checked", TRY_HINT)
            else:
                self.add(bad, "try_except", "a module-level try computes with a value that may "
                         "differ between the CPU check and the GPU (a tensor, a name bound to one "
                         "or to a container, a size or a matrix product), so its handler could pick "
                         "a path the CPU never checked", TRY_HINT)
        self.body(node.body)
        for h in node.handlers:
            if h.name:
                self.add(h, "try_except", f"`except ... as {h.name}` hands out the exception, and "
                         "what a library put in it", "catch without binding the exception")
            if h.type is not None:
                self.expr(h.type)
            self.body(h.body)
        self.body(node.orelse)
        self.body(node.finalbody)

    def body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def _any(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            self.stmt(node)
        elif isinstance(node, ast.expr):
            self.expr(node)
        else:
            for child in ast.iter_child_nodes(node):
                self._any(child)

    def _s_FunctionDef(self, node: ast.FunctionDef) -> None:
        in_class = isinstance(self.parent.get(id(node)), ast.ClassDef)
        own = in_class and self._own_dunder(node, self.parent[id(node)])  # type: ignore[arg-type]
        if is_dunder(node.name) and not (in_class and node.name in A.DUNDER_METHODS or own):
            self.add(node, "monkey_patch", f"defining {node.name} lets code run where the "
                     "harness does not expect it (formatting a value, an error, a log line)",
                     "describe an nn.Module with extra_repr" if node.name in ("__repr__", "__str__")
                     else "put the computation in forward and the setup in __init__")
        elif in_class and not own and node.name not in A.OVERRIDABLE and (
                node.name in self.t.module_methods or node.name in self.t.module_private) and (
                not self._plain_class(self.parent[id(node)])):  # type: ignore[arg-type]
            self.add(node, "monkey_patch", f"overrides nn.Module's {node.name}, which the "
                     "harness calls", "give the method a name of its own")
        if id(node) in self.kernels and not isinstance(self.parent.get(id(node)), ast.Module):
            self._held_kernel(node)
        if id(node) in self.kernels:
            self._one_def_line(node)
            self._device_syntax(node)
        self.decorators(node, "m" if in_class else "f")
        self.arguments(node.args)
        if node.returns is not None:
            self.annotation(node.returns)
        if id(node) not in self.test_only:  # its body never runs (evaluator.static_idioms)
            self.body(node.body)

    def _held_kernel(self, node: ast.FunctionDef) -> None:
        """A kernel defined in a class body is accepted as a namespace's or a class's member
        kernel (evaluator.static_member_kernels); one in a function never."""
        if self.kernel_namespace(self.parent.get(id(node))):
            return
        refusal = self.member_kernel_refusal(node)
        if refusal is not None:
            self.add(refusal[0], "forbidden_syntax", refusal[1], "define kernels at module level, "
                     "or keep one in a class as a @staticmethod launched only as "
                     f"Class.{node.name}[grid](...) or cls.{node.name}[grid](...) in a classmethod")

    def _plain_class(self, cls: ast.ClassDef) -> bool:
        """A class of no bases that the file only calls or reads attributes of (`Relu()`,
        `Relu.BLOCK`): no base of another class, so its methods override nothing of nn.Module's
        (honest round s40, h5_39c: a launcher object's method named `apply`)."""
        if cls.bases or cls.keywords:
            return False
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Name) and n.id == cls.name:
                up = self.parent.get(id(n))
                if not (isinstance(up, ast.Call) and up.func is n or isinstance(up, ast.Attribute) and up.value is n):
                    return False
        return True

    def _device_syntax(self, node: ast.FunctionDef) -> None:
        """What Triton's GPU compiler refuses in a kernel body (`CodeGenerator.generic_visit`:
        lambdas, generator expressions, set and dict comprehensions) the CPU interpreter
        would run as host Python on the loaded values: `max(range(n), key=lambda i: ...)`
        and `math.fsum(... for ...)` computed an argmax and a sum in Python inside a "kernel"
        (red team A, session 20: ok under strict)."""
        # the body only: decorators run on the host (`@triton.heuristics(values={"BLOCK":
        # lambda args: ...})` is Triton's own idiom)
        for sub in (s for stmt in node.body for s in ast.walk(stmt)):
            if isinstance(sub, (ast.Lambda, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
                # the GPU compiler's own refusal: a compile error, not a cheat (a Triton-Puzzles
                # solution's `stable_exp = lambda x: ...`, honest round s43)
                self.add(sub, "device_syntax", f"a {type(sub).__name__} in the kernel {node.name}: "
                         "Triton's compiler refuses it on the GPU", "write it with tl operations",
                         status="compile_error")
                return

    def _one_def_line(self, node: ast.FunctionDef) -> None:
        """Triton does not compile the checked AST: it reads the kernel's source text again and
        starts at a line that begins with `def` (the interpreter the LAST such line of the
        decorators and body, the GPU compiler the first `^def name(`), so a line of a string
        literal inside the kernel that starts with `def` is where the code that runs begins
        (a red team ran exec from one on the CPU). No line of a kernel's source but its own
        def may start with `def`."""
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        for number in range(first, (node.end_lineno or node.lineno) + 1):
            if number == node.lineno or not 0 < number <= len(self.source_lines):
                continue
            text = self.source_lines[number - 1].strip()
            if text.startswith("def") and (len(text) == 3 or not (text[3].isalnum() or text[3] == "_")):
                quoted = " ".join(text.split())[:57]
                self.findings.append(("hack", "dynamic_code", untrusted(
                    f"`{quoted}`: a line of the kernel {node.name} starts with `def`, and Triton "
                    "reads a kernel's source again and would start the code it runs there; keep "
                    "`def` off the start of any line inside a kernel (strings included)"), number))
                return

    def _s_ClassDef(self, node: ast.ClassDef) -> None:
        if not isinstance(self.parent.get(id(node)), ast.Module):
            self.add(node, "forbidden_syntax", f"class {node.name} is defined inside another "
                     "block", "define classes at module level")
        for base in node.bases:
            self._base(base, node)
        if node.keywords:
            self.add(node, "reflection", "class keywords (metaclass=...) are not allowed",
                     "subclass nn.Module without keywords")
        if self._derives(node, A.INTERFACE_BASES) and self._derives(node, A.BASES - A.INTERFACE_BASES - {"object"}):
            # ABCMeta would be the metaclass of a model or autograd.Function (or enum, error) class
            self.add(node, "monkey_patch", f"class {node.name} joins an interface base (abc.ABC, "
                     "typing.Protocol) with a torch, enum or exception base", "keep the interface on "
                     "plain launcher classes; the model subclasses nn.Module alone")
        self.decorators(node, "c")
        interface = self._derives(node, A.INTERFACE_BASES)
        for item in node.body:
            bound = [item.name] if isinstance(item, ast.FunctionDef) else [
                t.id for t in (item.targets if isinstance(item, ast.Assign) else [item.target])
                if isinstance(t, ast.Name)] if isinstance(item, (ast.Assign, ast.AnnAssign)) else []
            for name in (n for n in bound if interface and n in A.INTERFACE_MACHINERY):
                # `_is_runtime_protocol = True` (or a def of it: any truthy value) makes a Protocol
                # answer isinstance and singledispatch's issubclass by hasattr on any object
                self.add(item, "reflection", f"`{name}` in interface class {node.name} sets what "
                         "typing's/abc's machinery reads (a runtime protocol checks any object's "
                         "attributes by name)", "leave the interface's machinery to typing and abc")
            if isinstance(item, ast.FunctionDef) and item.name == "_generate_next_value_" and self._flag(node):
                # a Flag's auto() values are the file's function's: a member could hold any
                # object (torch.relu) where the class reads as bits; its members are literals
                self.add(item, "forbidden_syntax", f"`{item.name}` in a Flag class computes its members' "
                         "values", "give each member a literal int (or enum.auto())")
            if isinstance(item, ast.FunctionDef):
                self.stmt(item)
            elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                self._class_constant(item)
            elif not isinstance(item, ast.Pass) and not (
                    isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)):
                self.add(item, "forbidden_syntax", "a class body holds only methods, a "
                         "docstring and constants", "move the code into a method")

    def _own_dunder(self, node: ast.FunctionDef, cls: ast.ClassDef) -> bool:
        """A SHAPED_DUNDER_METHODS method in the class shape that says who calls it."""
        if node.name == "__post_init__":
            return any(self.qualify(d.func if isinstance(d, ast.Call) else d) == "dataclasses.dataclass"
                       for d in cls.decorator_list)
        if node.name != "__call__" or any(self.qualify(b) != "object" for b in cls.bases):
            return False
        return not any(isinstance(c, ast.ClassDef) and any(self.file_class(b) == cls.name for b in c.bases)
                       for c in ast.walk(self.tree))

    def _flag(self, cls: ast.ClassDef) -> bool:
        """Whether a class of the file derives from enum.Flag or enum.IntFlag."""
        return self._derives(cls, frozenset({"enum.Flag", "enum.IntFlag"}))

    def _derives(self, cls: ast.ClassDef, bases: frozenset[str], seen: frozenset[int] = frozenset()) -> bool:
        """Whether a class of the file derives from one of the library classes `bases`
        (directly or through classes of the file, however many: a depth cap of 8 let a chain of
        nine pass classes hide abc.ABC beside nn.Module, red team s51e)."""
        seen = seen | {id(cls)}
        for b in cls.bases:
            if self.qualify(b) in bases:
                return True
            kind, value = self.resolve(b)
            if kind == "class" and isinstance(value, ast.ClassDef) and id(value) not in seen and (
                    self._derives(value, bases, seen)):
                return True
        return False

    def _base(self, base: ast.expr, cls: ast.ClassDef) -> None:
        kind, value = self.resolve(base)
        if self.qualify(base) in A.BASES:
            return
        if self.qualify(base) in A.ENUM_MIXINS and any(self.qualify(b) in A.ENUM_BASES for b in cls.bases):
            return
        if kind == "class" and value in self.classes.values() and value.lineno < cls.lineno:
            return
        self.add(base, "monkey_patch", f"class {cls.name} subclasses something other than "
                 "nn.Module, torch.autograd.Function or a class defined above it",
                 "subclass nn.Module (or a class of your own defined above)")

    def _s_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.expr(node.value)

    def _s_Expr(self, node: ast.Expr) -> None:
        self.expr(node.value)

    def _s_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self.target(target)
        if self.type_alias(node):
            self.annotation(node.value)  # `Tensor = torch.Tensor`, named only in annotations
        else:
            self.expr(node.value)

    def _s_AugAssign(self, node: ast.AugAssign) -> None:
        self.target(node.target)
        self.expr(node.value)

    def _s_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.target(node.target)
        self.annotation(node.annotation)
        if node.value is not None and self.type_alias(node):
            self.annotation(node.value)  # `Tensor: TypeAlias = torch.Tensor`
        elif node.value is not None:
            self.expr(node.value)

    def _s_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.target(target)

    def _s_For(self, node: ast.For) -> None:
        self.target(node.target)
        self.expr(node.iter)
        self.body(node.body)
        self.body(node.orelse)

    def _s_While(self, node: ast.While | ast.If) -> None:
        self.expr(node.test)
        self.body(node.body)
        self.body(node.orelse)

    _s_If = _s_While

    def _s_Raise(self, node: ast.Raise) -> None:
        for part in (node.exc, node.cause):
            if part is not None:
                self.expr(part)

    def _s_Assert(self, node: ast.Assert) -> None:
        self.expr(node.test)
        if node.msg is not None:
            self.expr(node.msg)

    def _s_Pass(self, node: ast.stmt) -> None:
        pass

    _s_Break = _s_Continue = _s_Pass

    def _s_Import(self, node: ast.Import) -> None:
        if self.test_only_import(node):
            return  # a self-test's `import sys` (static_shapes)
        for alias in node.names:
            self._import(node, alias.name)

    def _s_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            self.add(node, "relative_import", "relative imports are not allowed",
                     "import the library by its full name", status="compile_error")
            return
        if any(a.name == "*" for a in node.names):
            self.add(node, "star_import", "a star import hides what the file uses",
                     "import the names you use", status="compile_error")
            return
        if self.annotation_only_import(node) or self.test_only_import(node):
            return  # names that only annotate (kernl's `ctx: FunctionCtx`, `Callable[...]`) or test
        if node.module == "torch.library" and all(a.name == "wrap_triton" and self.wrap_triton_only(
                a.asname or a.name) for a in node.names):
            return  # every use a wrapped launch (static_kernel_values)
        if all(f"{node.module}.{a.name}" in A.RANGES and self.range_only(a.asname or a.name) for a in node.names):
            return  # `from torch.profiler import record_function`: each use a `with` range (static_with)
        if all(f"{node.module}.{a.name}" in A.DECORATOR_ONLY.intersection(A.DECORATORS) for a in node.names):
            return  # `from torch.cuda.amp import custom_fwd`: decorators, held to the decorator rules
        if all(f"{node.module}.{a.name}" == DRIVER_IMPORT for a in node.names):
            return  # Triton tutorial 02's `from triton.runtime import driver` (_import)
        if not self._import(node, node.module):
            return
        for alias in node.names:
            full = f"{node.module}.{alias.name}"
            if alias.name not in self.t.namespaces[node.module]:
                self._deny_name(node, full)
            elif full in self.t.namespaces and not self.t.importable(full,
                                                                     self.cfg.allowed_imports):
                self._import(node, full)

    def _import(self, node: ast.stmt, name: str) -> bool:
        """True when `name` may be imported; otherwise one finding saying why not."""
        t = self.t
        if name == DRIVER_IMPORT:
            # Triton tutorial 02's `from triton.runtime import driver` (honest round s45): the
            # name is the chain's head, and each use is held to the chain's rules
            # (`driver.active.utils.get_device_properties(i)`; `driver` or `driver.active` as
            # a value, or any other attribute, is refused as written out)
            return True
        if any(name == m or name.startswith(m + ".") for m in ATTRIBUTE_ONLY):
            if name.startswith("torch"):
                self.add(node, denial_code(name), f"importing {name} hands out modules of "
                         "process-wide switches", "read a switch written out from `import torch`: "
                         "torch.backends.cuda.matmul.allow_tf32")
            elif name.startswith("triton.runtime.errors") or name.startswith("triton.compiler.errors"):
                self.add(node, denial_code(name), f"importing {name} hands out Triton's launcher",
                         "its error types serve only to catch a failed launch, and try/except is not "
                         "allowed: choose block sizes and num_stages the device's shared memory holds "
                         "(triton.runtime.driver.active.utils.get_device_properties(i) for its limits)")
            else:
                self.add(node, denial_code(name), f"importing {name} hands out Triton's launcher",
                         "for a device query write it out from `import triton`: "
                         "triton.runtime.driver.active.get_active_torch_device() or "
                         ".utils.get_device_properties(i); leave the launcher alone")
            return False
        if t.importable(name, self.cfg.allowed_imports):
            return True
        parts = name.split(".")
        top = parts[0]
        if name in t.namespaces or top not in {n.split(".")[0] for n in t.namespaces}:
            reason = A.DANGEROUS_MODULES.get(top)
            if reason is None and (top.startswith("_") or top in A.STDLIB_MODULES) and (
                    top not in A.HARMLESS_MODULES and top not in t.namespaces):
                reason = "a kernel file has no use for it"
            if reason is None:
                self.add(node, "unavailable_module", f"module {name} is not available in the "
                         "sandbox", A.HINTS["forbidden_import"], status="compile_error")
            else:
                code = "concurrency" if top in A.CONCURRENCY_MODULES else "forbidden_import"
                self.add(node, code, f"importing {name} is not allowed: {reason}")
            return False
        for i in range(len(parts) - 1, 0, -1):  # a submodule of an allowed package
            prefix = ".".join(parts[:i])
            if prefix in t.namespaces:
                self._deny_name(node, f"{prefix}.{parts[i]}")
                return False
        self._deny_name(node, name)
        return False


def _same_kernel_repeated(bindings: list, kernels: set[int]) -> bool:
    """Whether every binding of a name is the same @triton.jit definition, written more than
    once (identical source, decorators included): the name then means one kernel wherever it
    is read (a public level-2 solution defined its kernel twice and was called a patch)."""
    if len(bindings) < 2 or not all(id(b.node) in kernels and isinstance(b.node, ast.FunctionDef)
                                    for b in bindings):
        return False
    return len({ast.dump(b.node) for b in bindings}) == 1

