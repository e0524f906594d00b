"""Kernels held as values where the checker can still follow them (honest round, session 22).

A kernel (a @triton.jit/autotune/heuristics function) may only be launched or called from
another kernel: anything else could reach Triton's internals through it (`k.fn`, `k.cache`,
`k.run`). Honest files also hold kernels in three shapes whose every use stays a launch:
  - a module-level table bound once, `_KERNELS = {torch.float32: k32, torch.float16: k16}`
    (a dict or tuple literal of the file's kernels), only ever indexed: `_KERNELS[x.dtype]`
    cannot be written to, iterated, or handed anywhere;
  - a choice, `k = k_fp32 if fp32 else k_fp16`, or a table entry, bound once to a name;
  - a parameter of a module-level helper (`def _launch(kernel, x)`) whose every use in the
    file is a direct call passing a kernel at that parameter.
A kernel bound once as `self.X` in a class's __init__ (a variant chosen per instance), where
every other mention of the attribute name X in the file is `self.X[grid](...)` as a statement
and no string spells X, is the kernel under a longer name (session 40).
A kernel (by any of the shapes above) may also be handed to a launch statement of a kernel of the file at a
parameter annotated `tl.constexpr` that the launched kernel's body only calls (`ACTIVATION=
relu`, then `ACTIVATION(x)`): Triton specialises on it, a device function compiled into the
launched kernel as a helper called by name would be (session 40; launch_args admits the
exact JITFunction type there, device_compile hands the GPU front end its mirror).
Such a name resolves as `kernel`, held to the kernel rules (launch it, nothing else).
`relu = triton.jit(_relu)` at module level is the decorator written as a call: `_relu` (a
module-level def with no decorator that nothing else names) is a kernel, checked as one.
Kernels kept in a class (a kernel namespace, member kernels launched on the class or its
`cls`) are evaluator.static_member_kernels'.
`torch.library.wrap_triton(kernel)[grid](...)` as a statement (PyTorch's documented way to
make a launch traceable by torch.compile; honest round, session 23) is a launch: in eager
mode the wrapper's call is `kernel[grid](...)` (under the interpreter wrap_triton returns the
kernel itself), so the kernel is handed to nothing the file can reach again; the wrapper,
which holds the kernel (`.kernel.fn`), is never a value, and nothing else of torch.library
(its op registration overrides aten for the whole process) is usable.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from evaluator import static_allowlist as A
from evaluator.static_scopes import Binding, Scopes, sole_target

WRAP_TRITON = "torch.library.wrap_triton"
# decorators of an autograd Function's forward that call it with the arguments `apply` got
# (autocast's custom_fwd casts tensors only)
_PASSING_DECORATORS = frozenset({"torch.amp.custom_fwd", "torch.cuda.amp.custom_fwd"})
# what a refusal of torch.library (triton_op, custom_op, Library: an op registered for the
# whole process, dispatched as one opaque op) says to write instead
LIBRARY_INSTEAD = ("register no op: launch the kernel from forward (or a function it calls) as "
                   "kernel[grid](...); `torch.library.wrap_triton(kernel)[grid](...)` as a "
                   "statement, without triton_op, is allowed")


def _module_attributes() -> frozenset[str]:
    """Every attribute name nn.Module has (a kernel bound as `self.forward` would be its call)."""
    import torch

    return frozenset({*dir(torch.nn.Module), "training"})


# The library bases whose machinery reads no attribute of a class by a name the file chose: it
# reads only its own names (dir of the base), which a kernel's name must not be
HOLDER_BASES = ("torch.nn.Module", "torch.autograd.Function", "object")


def _base_attributes() -> frozenset[str]:
    import torch

    return _module_attributes() | frozenset(dir(torch.autograd.Function))


def jit_calls(tree: ast.Module, scopes: Scopes, qualify: Callable[[ast.AST], str | None]) -> dict[int, ast.FunctionDef]:
    """id(call) -> the def it makes a kernel of, for each module-level `NAME = triton.jit(f)`
    (the decorator's keywords only; NAME bound nowhere else, so it is always this kernel)
    where `f` is a module-level def bound once, undecorated, whose name appears nowhere else
    in the file: its plain function is never reachable."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            counts[node.id] = counts.get(node.id, 0) + 1
    found = {}
    for stmt in tree.body:
        call = stmt.value if isinstance(stmt, ast.Assign) else None
        if not (isinstance(call, ast.Call) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and qualify(call.func) == "triton.jit" and len(call.args) == 1
                and isinstance(call.args[0], ast.Name) and counts.get(call.args[0].id) == 1
                and all(k.arg in A.DECORATORS["triton.jit"][1] for k in call.keywords)
                and len(scopes.module.names.get(stmt.targets[0].id, ())) == 1):
            continue
        b = scopes.single(call.args[0])
        fn = b.node if b is not None and b.kind == "def" else None
        if isinstance(fn, ast.FunctionDef) and not fn.decorator_list and scopes.parent.get(id(fn)) is tree:
            found[id(call)] = fn
    return found


class KernelValues:
    """Which names and expressions are kernels held as values (a mixin of Resolver)."""

    def kernel_expression(self, node: ast.AST, seen: frozenset = frozenset()) -> bool:
        """A kernel (by name), a table's entry, or a choice between kernels."""
        if isinstance(node, ast.IfExp):
            return self.kernel_expression(node.body, seen) and self.kernel_expression(node.orelse, seen)
        if isinstance(node, ast.Call):
            return id(node) in self.jit_calls
        if isinstance(node, ast.Subscript):
            return isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and (
                self.kernel_table(node.value))
        return isinstance(node, ast.Name) and self._kernel_name(node, seen)

    def _kernel_name(self, node: ast.Name, seen: frozenset) -> bool:
        b = self.scopes.single(node)
        if b is None:
            return False
        if b.kind == "def":
            return id(b.node) in self.kernels
        return id(b) not in seen and self.kernel_binding(b, seen | {id(b)})

    def kernel_binding(self, b: Binding, seen: frozenset = frozenset()) -> bool:
        """A local bound once to a kernel expression, or a helper's kernel parameter.
        Memoized per binding, as `_kernel_param` is: `k2 = k1 if c else k1` follows both
        branches, and a chain of such lines walked per path doubled per line (red team s36:
        40 lines held a worker for good); an answer cut short by a cycle is False, and
        stays so."""
        if b.kind == "param":
            return self._kernel_param(b.node, seen)
        known = self.__dict__.setdefault("_locals", {})
        if id(b) not in known:
            known[id(b)] = False  # a cycle through this binding answers False
            assign = self.parent.get(id(b.node))
            known[id(b)] = b.kind == "local" and sole_target(assign) is b.node and (
                self.kernel_expression(assign.value, seen))
        return known[id(b)]

    def kernel_table(self, node: ast.Name) -> bool:
        """A module-level name bound once by `NAME = {key: kernel, ...}` or `(kernel, ...)`."""
        b = self.scopes.single(node)
        assign = self.parent.get(id(b.node)) if b is not None else None
        if b is None or b.kind != "local" or sole_target(assign) is not b.node or (
                self.parent.get(id(assign)) is not self.tree):
            return False
        value = assign.value
        entries = value.values if isinstance(value, ast.Dict) and None not in value.keys else (
            value.elts if isinstance(value, ast.Tuple) else None)
        return bool(entries) and all(isinstance(e, ast.Name) and self._kernel_name(e, frozenset())
                                     for e in entries)

    def table_use(self, node: ast.Name) -> bool:
        """A table is only ever indexed (read) or asked whether it holds a key (`if x.dtype not
        in _KERNELS: raise ...`, honest round s38: the answer is a bool, no kernel leaves the
        table): no method, store, iteration or hand-over."""
        sub = self.parent.get(id(node))
        if isinstance(sub, ast.Compare):  # one comparison: a chain hands the table on (`k in T == x`)
            return len(sub.ops) == 1 and sub.comparators[0] is node and isinstance(sub.ops[0], (ast.In, ast.NotIn))
        return isinstance(sub, ast.Subscript) and sub.value is node and isinstance(sub.ctx, ast.Load)

    def _own_callable(self, node: ast.expr, depth: int = 0) -> bool:
        """A function the file defines (`pre_hook=zero_out`), or a call of one that makes it
        (`pre_hook=init_to_zero("c_ptr")`): code the checker reads, never a library callable.
        Or None, or a parameter of a helper of the file that every call of it binds to one of
        these, passed or by default (Triton tutorial 09's `def matmul_get_configs(pre_hook=None)`
        handing `pre_hook=pre_hook` to each Config: honest round s42)."""
        if isinstance(node, ast.Constant) and node.value is None:
            return True
        if isinstance(node, ast.Call):
            node = node.func
        if not isinstance(node, ast.Name):
            return False
        kind, value = self.resolve(node)
        if kind == "def" and isinstance(value, ast.FunctionDef):
            return True
        b = self.scopes.single(node)
        fn = self._helper_of(b.node) if b is not None and b.kind == "param" and depth < 8 else None
        if fn is None or len(self.scopes.inner[id(fn)].names.get(b.node.arg, ())) != 1:
            return False
        calls = self._helper_calls(fn)
        return bool(calls) and all((given := self._given(call, fn, b.node)) is not None
                                   and self._own_callable(given, depth + 1) for call in calls)

    def _kernel_param(self, arg: ast.arg, seen: frozenset) -> bool:
        """Whether every call of its helper passes a kernel for `arg`. Memoized: helpers
        passing their parameters on to helpers would otherwise be walked once per path (a
        crafted file's chain of them, exponentially); an answer cut short by a cycle is
        False, and stays so (a refusal, never an opening)."""
        known = self.__dict__.setdefault("_params", {})
        if id(arg) not in known:
            fn = self._helper_of(arg)
            # bound only as the parameter: a later `kern = ...` makes every use of the name in
            # the function a plain local, which is no longer followed as the kernel it was handed
            single = fn is not None and len(self.scopes.inner[id(fn)].names.get(arg.arg, ())) == 1
            calls = self._helper_calls(fn) if single else None
            known[id(arg)] = False  # a cycle through this parameter answers False
            known[id(arg)] = bool(calls) and all(
                (given := self._given(call, fn, arg)) is not None and self.kernel_expression(given, seen)
                for call in calls)
        return known[id(arg)]

    def _given(self, call: ast.Call, fn: ast.FunctionDef, arg: ast.arg) -> ast.expr | None:
        """What a call of the helper (or an autograd Function's `apply`: its forward's first
        parameter is the context) binds the parameter to: the argument passed, or the
        parameter's default where the call passes none and no star argument could (kernl's
        `implementation: JITFunction = _layer_norm_fwd_fused_single_pass`, honest round s42)."""
        applied = isinstance(call.func, ast.Attribute)
        given = self._argument_for(call, fn, arg, skip=1 if applied else 0)
        if given is not None or any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords) or any(k.arg == arg.arg for k in call.keywords):
            return given
        return _default_of(fn, arg)

    def _helper_of(self, arg: ast.arg) -> ast.FunctionDef | None:
        """The module-level, undecorated, non-kernel def whose plain parameter `arg` is."""
        helpers = self.__dict__.get("_helpers")
        if helpers is None:  # once per file: every parameter a name resolves to asks
            helpers = self.__dict__["_helpers"] = {
                id(a): fn for fn in self.tree.body if isinstance(fn, ast.FunctionDef)
                and not fn.decorator_list and id(fn) not in self.kernels
                for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
            for fn in self.function_forwards().values():  # the context is no kernel's
                helpers.update({id(a): fn for a in (*fn.args.posonlyargs, *fn.args.args)[1:]})
        return helpers.get(id(arg))

    def function_forwards(self) -> dict[int, ast.FunctionDef]:
        """id(class) -> its forward, for each module-level autograd Function of the file (a
        class bound once, whose one base is torch.autograd.Function, no keyword or decorator)
        with one `@staticmethod def forward(ctx, ...)` and no star parameters: `Cls.apply(a,
        b)` calls that forward with a context, then a and b (kernl hands its kernel to
        `LayerNorm.apply`, honest round s42)."""
        found = self.__dict__.get("_forwards")
        if found is None:
            found = self.__dict__["_forwards"] = {}
            for cls in () if self.split_context else self.tree.body:  # forward(*args): static_names
                if not (isinstance(cls, ast.ClassDef) and len(cls.bases) == 1 and not cls.keywords
                        and not cls.decorator_list and self.qualify(cls.bases[0]) == "torch.autograd.Function"
                        and len(self.scopes.module.names.get(cls.name, ())) == 1):
                    continue
                forwards = [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"]
                if len(forwards) != 1 or len([f for f in cls.body if getattr(f, "name", None) == "forward"]) != 1:
                    continue
                fn = forwards[0]
                marks = [d for d in fn.decorator_list if isinstance(d, ast.Name) and d.id == "staticmethod"]
                # besides, only autocast's wrapper, which hands every argument that is no tensor on as it is
                others = [self.qualify(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list
                          if not any(d is m for m in marks)]
                if (len(marks) == 1 and all(q in _PASSING_DECORATORS for q in others) and fn.args.args
                        and fn.args.vararg is None and fn.args.kwarg is None and not fn.args.posonlyargs):
                    found[id(cls)] = fn
        return found

    def _forward_class(self, fn: ast.FunctionDef) -> ast.ClassDef | None:
        cls = self.parent.get(id(fn))
        return cls if isinstance(cls, ast.ClassDef) and self.function_forwards().get(id(cls)) is fn else None

    def _helper_calls(self, fn: ast.FunctionDef) -> list[ast.Call] | None:
        """Every use of the helper's name, each a direct call (None: it is used otherwise, or
        bound more than once)."""
        cache = self.__dict__.setdefault("_helper_cache", {})
        cls = self._forward_class(fn)
        if cls is not None and id(fn) not in cache:
            applied: list[ast.Call] | None = []
            for node in self._names().get(cls.name, ()):
                b = self.scopes.single(node) if isinstance(node.ctx, ast.Load) else None
                attr = self.parent.get(id(node))
                call = self.parent.get(id(attr))
                if b is not None and b.node is not cls:
                    continue  # another binding of the same name (a shadowing local)
                if b is None or not (isinstance(attr, ast.Attribute) and attr.attr == "apply"
                                     and isinstance(call, ast.Call) and call.func is attr):
                    applied = None
                    break
                applied.append(call)
            cache[id(fn)] = applied
        if id(fn) not in cache:
            calls: list[ast.Call] | None = []
            for node in self._names().get(fn.name, ()):
                b = self.scopes.single(node) if isinstance(node.ctx, ast.Load) else None
                call = self.parent.get(id(node))
                if b is None or b.node is not fn or not (isinstance(call, ast.Call) and call.func is node):
                    if b is not None and b.node is not fn:
                        continue  # another binding of the same name (a shadowing local)
                    calls = None
                    break
                calls.append(call)
            cache[id(fn)] = calls
        return cache[id(fn)]

    def _names(self) -> dict[str, list[ast.Name]]:
        """Every Name node of the file by its name, gathered once (each helper asks)."""
        names = self.__dict__.get("_all_names")
        if names is None:
            names = self.__dict__["_all_names"] = {}
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Name):
                    names.setdefault(node.id, []).append(node)
        return names

    @staticmethod
    def _argument_for(call: ast.Call, fn: ast.FunctionDef, arg: ast.arg, skip: int = 0) -> ast.expr | None:
        """What a call passes for the parameter (None: a star argument could, or nothing;
        `skip`: leading parameters the call does not pass, an autograd Function's context)."""
        if any(k.arg is None for k in call.keywords):
            return None
        positional = [*fn.args.posonlyargs, *fn.args.args][skip:]
        index = next((i for i, a in enumerate(positional) if a is arg), None)
        if index is not None and index < len(call.args):
            given = call.args[:index + 1]
            return None if any(isinstance(a, ast.Starred) for a in given) else given[index]
        if any(isinstance(a, ast.Starred) for a in call.args):
            return None
        return next((k.value for k in call.keywords if k.arg == arg.arg), None)

    def wrapped_launch(self, call: ast.AST | None) -> bool:
        """`torch.library.wrap_triton(kernel)[grid](...)` as an expression statement, the one
        argument a kernel expression."""
        if not (isinstance(call, ast.Call) and self.qualify(call.func) == WRAP_TRITON
                and not call.keywords and len(call.args) == 1 and self.kernel_expression(call.args[0])):
            return False
        sub = self.parent.get(id(call))
        launch = self.parent.get(id(sub))
        return isinstance(sub, ast.Subscript) and sub.value is call and isinstance(launch, ast.Call) and (
            launch.func is sub and isinstance(self.parent.get(id(launch)), ast.Expr))

    def wrap_triton_name(self, root: ast.expr, dotted: str, chain: list[ast.Attribute]) -> bool:
        """`torch.library.wrap_triton` (or the name imported from torch.library) in a wrapped
        launch, where api() need not walk the namespaces."""
        if not dotted.startswith("torch"):
            return False
        full = ".".join([dotted, *(a.attr for a in chain)])
        leaf = chain[-1] if chain else root
        return full == WRAP_TRITON and self.wrapped_launch(self.parent.get(id(leaf)))

    def wrap_triton_only(self, name: str) -> bool:
        """`from torch.library import wrap_triton`: every use of the name it binds is the
        function of a wrapped launch (the name is only ever bound by the import)."""
        uses = self._names().get(name, ())
        return all(isinstance(n.ctx, ast.Load) and self.wrapped_launch(self.parent.get(id(n))) for n in uses)

    def kernel_passed(self, node: ast.expr, parent: ast.AST | None) -> bool:
        """A kernel expression as the argument a helper's kernel parameter takes, or the value
        of a name bound once that is a kernel, or a branch of such a choice, or an entry of a
        table, or wrap_triton's in a wrapped launch: places where it stays followed."""
        if self.wrapped_launch(parent):
            return True
        if isinstance(parent, ast.IfExp) and parent.test is not node:
            return self.kernel_expression(parent) and self.kernel_passed(parent, self.parent.get(id(parent)))
        if isinstance(sole_target(parent), ast.Name) and parent.value is node:  # type: ignore[attr-defined]
            b = self._binding_of(sole_target(parent))  # type: ignore[arg-type]
            return b is not None and self.kernel_binding(b)
        if isinstance(parent, (ast.Dict, ast.Tuple)):
            target = sole_target(self.parent.get(id(parent)))
            return isinstance(target, ast.Name) and self.kernel_table(target)
        if isinstance(parent, ast.Call) and id(parent) in self.jit_calls:
            return True  # `relu = triton.jit(_relu)`: the def it was made from
        if self._kernel_attribute(node, parent):
            return True
        if isinstance(parent, ast.arguments):  # a helper parameter's default
            fn = self.parent.get(id(parent))
            arg = _defaulted(parent, node)
            return isinstance(fn, ast.FunctionDef) and arg is not None and self._helper_of(arg) is fn and (
                self._kernel_param(arg, frozenset()))
        if isinstance(parent, ast.Compare):  # `implementation == layer_norm_xformers`: a bool
            return len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) and (
                self.kernel_expression(parent.left) and self.kernel_expression(parent.comparators[0]))
        call = self.parent.get(id(parent)) if isinstance(parent, ast.keyword) else parent
        if self._constexpr_argument(node, call):
            return True
        if not isinstance(call, ast.Call) or node is call.func:
            return False
        fn, skip = self._callee(call)
        if fn is None:
            return False
        for arg in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)[skip:]:
            if self._argument_for(call, fn, arg, skip) is node:
                return self._kernel_param(arg, frozenset())
        return False

    def _callee(self, call: ast.Call) -> tuple[ast.FunctionDef | None, int]:
        """The def a call runs, by name, or an autograd Function's forward by `Cls.apply`, and
        how many of its leading parameters the call does not pass."""
        if isinstance(call.func, ast.Name):
            b = self.scopes.single(call.func)
            fn = b.node if b is not None and b.kind == "def" else None
            return (fn, 0) if isinstance(fn, ast.FunctionDef) else (None, 0)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "apply" and isinstance(call.func.value, ast.Name):
            b = self.scopes.single(call.func.value)
            fn = self.function_forwards().get(id(b.node)) if b is not None else None
            return (fn, 1) if fn is not None else (None, 0)
        return None, 0

    def _kernel_attribute(self, node: ast.expr, parent: ast.AST | None) -> bool:
        """`self.kernel = _relu_kernel` in a class's __init__ (model code that picks a kernel
        variant per instance), where every other mention of that attribute name anywhere in
        the file is `self.kernel[grid](...)` as a statement, and no string of the file spells
        it (`getattr(obj, "kernel")`): the kernel is only ever launched, under a longer name.
        Never a name nn.Module has (its `forward`, its hooks) or a dunder (session 40)."""
        target = sole_target(parent)
        method = self.parent.get(id(parent))
        cls = self.parent.get(id(method))
        if not (isinstance(target, ast.Attribute) and getattr(parent, "value", None) is node
                and isinstance(target.value, ast.Name) and isinstance(method, ast.FunctionDef)
                and method.name == "__init__" and isinstance(cls, ast.ClassDef) and method.args.args
                and target.value.id == method.args.args[0].arg and id(method.args.args[0]) in self.self_args
                and self.kernel_expression(node)):
            return False
        name = target.attr
        if name.startswith("__") or name in _module_attributes() or not self.no_implicit_reader(cls, name):
            return False
        # every spelling of the name: an attribute, a string, a class pattern's keyword (red
        # team rt66: `case ModelNew(kern=k)` read the kernel back by name)
        for other in self._spellings().get(name, ()):
            if other is target:
                continue
            if not isinstance(other, ast.Attribute):
                return False
            sub = self.parent.get(id(other))
            call = self.parent.get(id(sub))
            if not (isinstance(other.ctx, ast.Load) and isinstance(other.value, ast.Name)
                    and self.resolve(other.value)[0] == "self" and isinstance(sub, ast.Subscript)
                    and sub.value is other and isinstance(call, ast.Call) and call.func is sub
                    and isinstance(self.parent.get(id(call)), ast.Expr)):
                return False
        return True

    def no_implicit_reader(self, cls: ast.ClassDef, name: str) -> bool:
        """No library code reads attribute `name` of the class or its instances by that name:
        the class is undecorated, on HOLDER_BASES alone (whose machinery reads only its own
        names, which `name` is not), and no class of the file derives from it. Red team rt66: a
        kernel held as `self.kern`, or as a class-body alias, under a dataclass field's name
        was read back by the generated __repr__ (also __eq__, astuple, asdict), with no
        attribute or string of the file naming it, and a subclass of a dataclass inherits them."""
        if cls.decorator_list or cls.keywords or name in _base_attributes() or not all(
                self.qualify(b) in HOLDER_BASES for b in cls.bases):
            return False
        bases = self.__dict__.get("_file_bases")
        if bases is None:  # once per file: every holder asks (2,000 classes ran past the budget once)
            bases = self.__dict__["_file_bases"] = {self.file_class(b) for c in self.classes.values() for b in c.bases}
        return cls.name not in bases

    def _constexpr_argument(self, node: ast.expr, call: ast.AST | None) -> bool:
        """`k[grid](x, ACTIVATION=relu)`: a kernel of the file handed to a launch of a kernel of
        the file at a parameter annotated `tl.constexpr`, which the kernel body calls as a
        device function (Triton specialises on it: the combine function of a generic reduction,
        an activation). It reaches only the launched kernel's compiler, as a helper it calls by
        name would (session 40)."""
        launch = call.func if isinstance(call, ast.Call) else None
        if not (isinstance(launch, ast.Subscript) and isinstance(launch.value, ast.Name)
                and isinstance(self.parent.get(id(call)), ast.Expr)):  # a launch as a statement
            return False
        b = self.scopes.single(launch.value)
        fn = b.node if b is not None and b.kind == "def" else None
        # what is handed is a kernel the checks follow (by name, through a helper's parameter,
        # a choice or a table): a def of the file, which is at module level (a kernel defined
        # inside a function, which could close over what a forward computed, is refused)
        if not (isinstance(fn, ast.FunctionDef) and id(fn) in self.kernels and self.kernel_expression(node)):
            return False
        for arg in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
            if self._argument_for(call, fn, arg) is node:  # type: ignore[arg-type]
                return (arg.annotation is not None and self.qualify(arg.annotation) == "triton.language.constexpr"
                        and self._only_called(fn, arg.arg))
        return False

    def _only_called(self, fn: ast.FunctionDef, name: str) -> bool:
        """Whether the kernel's body uses its parameter `name` only as the function of a call
        (`ACTIVATION(x)`): never an attribute of it (`ACTIVATION.fn`, its Python function),
        a value handed on, or a new binding."""
        for node in ast.walk(fn):
            if isinstance(node, ast.Name) and node.id == name:
                call = self.parent.get(id(node))
                if not (isinstance(node.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is node):
                    return False
            elif isinstance(node, ast.arg) and node.arg == name and node not in (
                    *fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
                return False  # a lambda's or nested def's own parameter by that name
        return True

    def _binding_of(self, target: ast.Name) -> Binding | None:
        """The binding a Store name makes, when it is the only one of that name in its scope."""
        scope = self.scopes.of_node.get(id(target), self.scopes.module)
        bindings = scope.names.get(target.id, [])  # (a class body's names are attributes of self)
        single = len(bindings) == 1 and bindings[0].node is target and not scope.is_class
        return bindings[0] if single else None



def _default_of(fn: ast.FunctionDef, arg: ast.arg) -> ast.expr | None:
    """The default value of a parameter (None: it has none)."""
    positional = [*fn.args.posonlyargs, *fn.args.args]
    if arg in positional:
        at = positional.index(arg) - (len(positional) - len(fn.args.defaults))
        return fn.args.defaults[at] if at >= 0 else None
    if arg in fn.args.kwonlyargs:
        return fn.args.kw_defaults[fn.args.kwonlyargs.index(arg)]
    return None


def _defaulted(arguments: ast.arguments, value: ast.expr) -> ast.arg | None:
    """The parameter whose default `value` is."""
    positional = [*arguments.posonlyargs, *arguments.args]
    for arg, default in zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults):
        if default is value:
            return arg
    for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
        if default is value:
            return arg
    return None
