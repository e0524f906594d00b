"""Expressions of a candidate file against the allowlist: names, attributes, calls.

The half of the walk (evaluator.static_walk) that looks at what a line names. A name is
resolved with Python's scoping (evaluator.static_scopes): an import must walk the
namespaces of evaluator.static_allowlist down to a listed name, and a module is only
ever the base of an attribute; a builtin must be on the builtin allowlist; any other
object's attributes are held to the attribute rules (no dunders, no private names but
your own on `self`, no hooks, storages, streams or frames). What may be written to is
evaluator.static_stores.

Privileges (which parameters they are: evaluator.static_names): `self` may have private
attributes and be assigned to; `ctx` may be assigned to. A kernel (a @triton.jit/
autotune/heuristics function) may only be launched (`kernel[grid](...)`) or called from
another kernel (or warmed as Triton tutorial 02 does: evaluator.static_warmed).
"""
from __future__ import annotations

import ast

from evaluator import gpu_names, static_unicode
from evaluator import static_allowlist as A
from evaluator.static_class_members import ClassMemberReads
from evaluator.static_idioms import LOGGER_METHODS, logger_definition
from evaluator.static_names import Resolver
from evaluator.static_shapes import AcceptedShapes
from evaluator.static_stores import StoreChecks, is_dunder, literal  # noqa: F401  (this module's API too)
from evaluator.static_values import ValueUses
from evaluator.static_warmed import WARMED_INSTEAD

_PLAIN_EXPRESSIONS = (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Dict, ast.Set,
                      ast.List, ast.Tuple, ast.Compare, ast.Starred, ast.Slice, ast.JoinedStr,
                      ast.FormattedValue, ast.Constant)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_REFLECTIVE = frozenset({"getattr", "hasattr", "setattr", "delattr"})


class ExpressionChecker(ValueUses, AcceptedShapes, StoreChecks, ClassMemberReads, Resolver):
    """The checks of everything but statements (names are resolved by Resolver, assignment
    targets checked by StoreChecks, how a value may be used by ValueUses)."""

    # ------------------------------------------------------------------ functions
    def arguments(self, args: ast.arguments) -> None:
        for default in (*args.defaults, *[d for d in args.kw_defaults if d is not None]):
            self.expr(default)
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None and arg.annotation is not None:
                self.annotation(arg.annotation)

    def annotation(self, node: ast.expr) -> None:
        """Annotations are checked like code, except that an undefined name is no error
        (under `from __future__ import annotations` they are never evaluated)."""
        self.in_annotation += 1
        self.expr(node)
        self.in_annotation -= 1

    # ------------------------------------------------------------------ expressions
    def expr(self, node: ast.expr) -> None:
        handler = getattr(self, "_e_" + type(node).__name__, None)
        if handler is not None:
            handler(node)
        elif isinstance(node, _PLAIN_EXPRESSIONS):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
        elif isinstance(node, _COMPREHENSIONS):
            self._comprehension(node)
        else:
            self.add(node, "forbidden_syntax", f"{type(node).__name__} expressions are not "
                     "allowed (no generators, await)", "return lists or tensors")

    def _comprehension(self, node: ast.expr) -> None:
        for gen in node.generators:
            if gen.is_async:
                self.add(node, "forbidden_syntax", "async comprehensions are not allowed")
            self.target(gen.target)
            self.expr(gen.iter)
            for cond in gen.ifs:
                self.expr(cond)
        for part in ("elt", "key", "value"):
            if getattr(node, part, None) is not None:
                self.expr(getattr(node, part))

    def _e_Lambda(self, node: ast.Lambda) -> None:
        self.arguments(node.args)
        self.expr(node.body)

    def _e_NamedExpr(self, node: ast.NamedExpr) -> None:
        home = self.scopes.of_node.get(id(node.target))
        if home is not None and home.is_class:
            # a walrus in a method's default, decorator or annotation binds in the class body's
            # scope: a class attribute no statement of the body shows (red team rt61:
            # `def forward(self, x, _=(to := moved))` made ModelNew.to the file's function, and
            # `(_helper := torch.relu)` replaced the staticmethod `C._helper(...)` calls)
            self.add(node, "monkey_patch", f"`{node.target.id} := ...` binds a class attribute from "
                     "outside the class body's statements", "bind class constants as `name = value` "
                     "statements of the class body, and other values in __init__")
        self.expr(node.value)

    def _e_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.value, ast.Name) and self.resolve(node.value)[0] == "kernel_table":
            self._table_entry(node)
        self.expr(node.value)
        self.expr(node.slice)

    def _e_Name(self, node: ast.Name) -> None:
        if node.id in A.DENIED_BUILTINS and self.resolve(node)[0] == "builtin":
            self._builtin(node, self.parent.get(id(node)))
            return
        if is_dunder(node.id):
            if node.id not in A.DUNDER_NAMES:
                self.add(node, "reflection", f"the dunder name {node.id} reaches the "
                         "interpreter", "use `if __name__ == \"__main__\":` and no other dunder")
            return
        kind, value = self.resolve(node)
        parent = self.parent.get(id(node))
        if kind == "import":
            self.api(node, str(value), [])
        elif kind == "def" and isinstance(value, ast.FunctionDef) and any(
                self.qualify(d) == "functools.singledispatch" for d in value.decorator_list) and not (
                isinstance(parent, ast.Call) and parent.func is node or isinstance(parent, ast.Attribute)):
            # held under another name, its register/dispatch would be read unseen
            self.add(node, "reflection", f"the singledispatch function {node.id} is only called",
                     f"call {node.id}(...) where you need it")
        elif kind == "builtin":
            self._builtin(node, parent)
        elif kind == "unbound" and not self.in_annotation and not self._unjudged_read(node):
            self.add(node, "undefined_name", f"{node.id} is not defined in the file",
                     "define or import every name you use", status="compile_error")
        elif kind == "kernel" and isinstance(parent, ast.Subscript) and parent.value is node:
            call = self.parent.get(id(parent))
            if not (isinstance(call, ast.Call) and call.func is parent
                    and isinstance(self.parent.get(id(call)), ast.Expr)):
                self.add(parent, "reflection", f"a launch of {node.id} is used as a value (its "
                         "result is the compiled kernel, with its own launcher and Triton's "
                         "internals)", f"launch it as a statement: {node.id}[grid](...)")
        elif kind == "warmed" and not self.warmed_use(node, parent):
            self.add(node, "reflection", f"the warmed kernel {node.id} is used as a value (or outside the "
                     "function that warmed it)", WARMED_INSTEAD)
        elif kind == "kernel_table" and not self.table_use(node):
            self.add(node, "reflection", f"the kernel table {node.id} is used other than by indexing it",
                     f"launch an entry: {node.id}[key][grid](...)")
        elif kind == "kernel" and not (
                isinstance(parent, ast.Call) and parent.func is node
                or self._kernel_argument(node, parent) or self.kernel_passed(node, parent)):
            self.add(node, "reflection", f"the kernel {node.id} is used as a value",
                     f"launch it as {node.id}[grid](...), pass it straight to a function of "
                     f"this file that launches it (helper({node.id}, ...), not "
                     "through functools.partial), call it from another kernel, or hand it to a "
                     "launch at a tl.constexpr parameter the kernel only calls")
        elif kind == "logger" and not self._logger_call(node):
            self.add(node, "reflection", f"the logger {node.id} is used other than by calling "
                     "one of its logging methods (a Logger hands out every logger of the "
                     "process and takes callables)", f"call {node.id}.debug/info/warning(...)")
        elif kind == "def" and self._method_as_function(value):
            # only in its class body (a default, an annotation, a decorator argument) is a
            # method's bare name in scope: there it is the plain function, callable with any
            # object as its trusted self
            self.add(node, "reflection", f"the method {node.id} is used as a plain function in "
                     "its class body, so its self could be any object", "call it on an instance "
                     f"(self.{node.id}(...)) inside a method")
        elif kind == "class" and not self._class_use(node, parent):
            self.add(node, "reflection", f"the class {node.id} is handled as a value (its "
                     "methods could then run with any object as self)", f"instantiate it, "
                     f"use {node.id}.attribute, isinstance, or `ModelNew = {node.id}`")

    def _table_entry(self, node: ast.Subscript) -> None:
        """`_KERNELS[x.dtype]`: launched as a statement, or bound once to a name, or passed to
        a helper's kernel parameter (static_kernel_values), like a kernel's name."""
        parent = self.parent.get(id(node))
        call = self.parent.get(id(parent))
        launched = isinstance(parent, ast.Subscript) and parent.value is node and isinstance(call, ast.Call) \
            and call.func is parent and isinstance(self.parent.get(id(call)), ast.Expr)
        if not (launched or self.kernel_passed(node, parent)):
            self.add(node, "reflection", "an entry of a kernel table is used as a value",
                     "launch it as a statement: table[key][grid](...)")

    def _logger_call(self, node: ast.Name) -> bool:
        """`log.info(...)`: a logging method of a module's logger, called."""
        attr = self.parent.get(id(node))
        return isinstance(attr, ast.Attribute) and attr.value is node and (
            attr.attr in LOGGER_METHODS) and self._called(attr)

    def _enclosing_def(self, node: ast.AST) -> ast.AST | None:
        """The innermost def or lambda around `node` (comprehensions see through), or None."""
        at = self.parent.get(id(node))
        while at is not None and not isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            at = self.parent.get(id(at))
        return at

    def _method_as_function(self, fn: object) -> bool:
        """Whether `fn` is a method whose first parameter is trusted (self or ctx)."""
        args = [*fn.args.posonlyargs, *fn.args.args][:1] if isinstance(fn, ast.FunctionDef) else []
        return bool(args) and (id(args[0]) in self.self_args or id(args[0]) in self.ctx_args)

    def _kernel_argument(self, node: ast.expr, parent: ast.AST | None) -> bool:
        """`tl.reduce(x, 0, combine)`: a kernel as the function argument of a
        KERNEL_ARGUMENTS call (at its position or under its keyword), nowhere else."""
        call = self.parent.get(id(parent)) if isinstance(parent, ast.keyword) else parent
        if not isinstance(call, ast.Call):
            return False
        rule = A.KERNEL_ARGUMENTS.get(self.qualify(call.func) or "")
        if rule is None:
            return False
        if isinstance(parent, ast.keyword):
            return parent.arg == rule[1]
        return len(call.args) > rule[0] and call.args[rule[0]] is node and not any(
            isinstance(a, ast.Starred) for a in call.args[:rule[0]])

    def _type_expression(self, node: ast.expr, cast: bool = False) -> bool:
        """`C`, `Optional[C]`, `dict[str, C]`, `C | None`, `Callable[[C, float], C]` (its
        argument list: honest round, session 20) as a whole annotation or, with `cast`, as
        the type `typing.cast(T, value)` takes (which returns the value and never touches
        T: honest round, session 31)."""
        child, parent = node, self.parent.get(id(node))
        while True:
            if isinstance(parent, ast.Call):
                return cast and bool(parent.args) and parent.args[0] is child and (
                    self.qualify(parent.func) == "typing.cast")
            if not cast and isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is child:
                return self.type_alias(parent)  # `Device = Optional[torch.device]` (static_shapes)
            if not cast and isinstance(parent, (ast.arg, ast.AnnAssign)):
                return parent.annotation is child
            if not cast and isinstance(parent, ast.FunctionDef):
                return parent.returns is child
            if not (isinstance(parent, ast.Subscript) and parent.slice is child
                    or isinstance(parent, (ast.Tuple, ast.List))
                    or isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitOr)):
                return False
            child, parent = parent, self.parent.get(id(parent))

    def _builtin(self, node: ast.Name, parent: ast.AST | None) -> None:
        name = node.id
        if name == "str" and not self._str_use(node, parent):
            self.add(node, static_unicode.CODE, "str with an encoding (or handed where it may be "
                     "called with one) decodes bytes, which can make any character, and the CPU "
                     "check's Python and the GPU's read some characters apart",
                     "call str(x) with one argument, or test isinstance(x, str)", status="compile_error")
        if name in A.BUILTINS:
            return
        if name in A.CALL_ONLY_BUILTINS:
            if not (isinstance(parent, ast.Call) and parent.func is node):
                self.add(node, "reflection", f"{name} may only be called directly, never "
                         "passed around or renamed")
            return
        if name == "type" and self._type_as_text(node, parent):
            return
        code = A.DENIED_BUILTINS.get(name, "forbidden_api")
        self.add(node, code, f"the builtin {name} is not allowed",
                 "use isinstance(x, T)" if name == "type" else None)

    def _e_Attribute(self, node: ast.Attribute) -> None:
        chain, root = [], node
        while isinstance(root, ast.Attribute):
            chain.append(root)
            root = root.value
        chain.reverse()
        kind, value = self.resolve(root)
        if kind == "import":
            self.api(root, str(value), chain)
            return
        if kind == "def" and isinstance(value, ast.FunctionDef) and any(
                self.qualify(d) == "functools.singledispatch" for d in value.decorator_list):
            # register(cls, func) takes any callable, dispatch(cls)/registry hand out what was
            # registered: only the `@f.register` decorator line (static_walk) reads one
            self.add(chain[0], "reflection", "a singledispatch function's attributes (register, dispatch, "
                     "registry) are read only as its `@f.register` decorator", "call the function; register "
                     "implementations with @f.register(int) over a def")
            return
        if kind == "kernel":
            if [a.attr for a in chain] == ["warmup"] and self.warm_call(self.parent.get(id(chain[0]))):
                return  # `k = kernel.warmup(..., grid=...)` (static_warmed); its arguments are walked
            if not self._autotune_choice(chain):
                self.add(chain[0], "reflection", "a kernel's attributes are Triton internals",
                         "launch it as kernel[grid](...), or read a block size the autotuner "
                         "chose as kernel.best_config.kwargs[\"NAME\"]")
            return
        if kind == "logger":
            self._e_Name(root)  # type: ignore[arg-type]
            return
        if kind == "warmed":
            if not (self.warmed_read(chain) and self.warmed_use(root, chain[0])):  # type: ignore[arg-type]
                self.add(chain[-1], "reflection", "a warmed kernel is read only "
                         "as Triton tutorial 02 reads it (its compiled kernel reaches the driver)", WARMED_INSTEAD)
            return
        if kind == "class" and chain[0].attr == "register" and not self._defines(value, "register", set()):
            # ABCMeta.register (abc.ABC's, typing.Protocol's metaclass) makes any class, a torch
            # one too, a virtual subclass: isinstance then answers True for it
            self.add(chain[0], "reflection", "`register` read off a class is ABCMeta's (a virtual "
                     "subclass: isinstance answers yes for any class)", "subclass the interface explicitly")
            return
        if kind == "class":
            self._method_through_class(value, chain[0])  # type: ignore[arg-type]
        if isinstance(root, ast.Name):
            self._e_Name(root)
        else:
            self.expr(root)
        owner = kind if kind in ("self", "ctx") else "other"
        if kind == "class" and (self.member_launch(chain[0]) or self._own_static_call(root, value, chain[0])):
            owner = "member"  # `cls._fwd[grid](...)`: the class's own kernel (static_member_kernels)
        if isinstance(root, ast.Call) and self.qualify(root.func) == "super":
            owner = "super"
        for i, attr in enumerate(chain):
            self.attribute(attr, owner if i == 0 else "other")

    def api(self, root: ast.expr, dotted: str, chain: list[ast.Attribute]) -> None:
        """Walk an import-rooted chain down the namespaces to an allowed name."""
        if self.in_annotation and self._named_type(root, dotted, chain):
            return
        if self.wrap_triton_name(root, dotted, chain):
            return  # torch.library.wrap_triton(kernel)[grid](...) (static_kernel_values)
        ns, i, names = dotted, 0, self.t.namespaces
        if ns in names:
            while i < len(chain):
                full = f"{ns}.{chain[i].attr}"
                if full in A.VERSION_ATTRIBUTES and isinstance(chain[i].ctx, ast.Load):
                    for attr in chain[i + 1:]:  # methods of a str
                        self.attribute(attr, "other")
                    return
                if chain[i].attr not in names[ns]:
                    self._deny_name(chain[i], full)
                    return
                i += 1
                if full not in names:
                    ns = full
                    break
                ns = full
            else:
                if not (chain and self._jit_alias_definition(chain[-1])):  # `tl_math = tl.math`
                    self.add(chain[-1] if chain else root, "reflection", f"the module {ns} is "
                             "used as a value", "use its functions by name (torch.relu, tl.load)")
                return
        leaf = chain[i - 1] if i else root
        if ns in A.DEFINITION_ONLY and i == len(chain) and self._called(leaf) and (
                logger_definition(self.parent.get(id(self.parent.get(id(leaf)))), self.scopes,
                                  self.qualify)):
            pass  # `log = logging.getLogger(__name__)` (evaluator.static_idioms)
        elif ns in A.DEFINITION_ONLY:
            self.add(leaf, "reflection", f"{ns} is allowed only as `log = {ns}(__name__)` at "
                     "module level", "bind the logger once at module level and call its "
                     "logging methods")
        elif ns == "triton.jit" and i == len(chain) and id(self.parent.get(id(leaf))) in self.jit_calls:
            pass  # `k = triton.jit(f)` at module level: the decorator as a call (static_kernel_values)
        elif ns in A.DECORATOR_ONLY:  # decorators are checked by decorators(), not here
            self.add(leaf, "forbidden_syntax", f"{ns} is used outside a decorator",
                     f"decorate the kernel with @{ns}" + (
                         f", or rebind it in the statements right below its def at module level "
                         f"(`k = {ns}(k)` or `k = {ns}(...)(k)`)" if ns.startswith("triton.") else "")
                     + (" (or write `kernel = triton.jit(body)` at module level, body a plain def "
                        "named nowhere else)" if ns == "triton.jit" else ""))
        elif ns in self.t.jit_functions and not (i == len(chain) and (
                self._called(leaf) or self._kernel_argument(leaf, self.parent.get(id(leaf)))
                or self._jit_alias_definition(leaf))):
            self.add(leaf, "reflection", f"{ns} is a Triton JIT function, whose attributes "
                     "are Triton internals (its module's globals, its launcher)",
                     f"call it: {ns.rsplit('.', 1)[1]}(...)")
            return
        elif ns in self.t.classes and i == len(chain) and not self._class_use(
                leaf, self.parent.get(id(leaf))) and not self._jit_alias_definition(leaf):
            self.add(leaf, "reflection", f"the class {ns} is handled as a value (its "
                     "attributes could then be replaced)", "instantiate it, read its "
                     "attributes, or use it in isinstance")
        elif ns in A.INTERFACE_BASES and i < len(chain):
            # abc.ABC and typing.Protocol are bases only (red team s51e): their attributes are
            # ABCMeta's machinery, `abc.ABC.register(C)` a write to the library class's registry
            self.add(chain[i], "monkey_patch", f"{ns} is an interface base only "
                     "(its attributes are ABCMeta's machinery: register writes the library class's "
                     "registry)", f"subclass {ns.rsplit('.', 1)[1]} and leave its attributes alone")
            return
        elif ns in self.t.classes and i < len(chain) and not self._class_attribute_use(ns, chain[i]):
            self.add(chain[i], "reflection", f"{ns}.{chain[i].attr} is taken from the class as a value: "
                     "a method or descriptor read off a library class is the object the process "
                     "installed there, and the CPU check's child installs its own on some (its "
                     "Tensor.is_cuda is a property, the GPU's a C getset)",
                     f"call it ({ns.rsplit('.', 1)[1]}.{chain[i].attr}(...)), or read it off an "
                     "instance (x.is_cuda)")
        for attr in chain[i:]:
            self.attribute(attr, "other")

    def _named_type(self, root: ast.expr, dotted: str, chain: list[ast.Attribute]) -> bool:
        """A public name as a type expression of an annotation (`Optional[torch.FloatTensor]`,
        `ctx: FunctionCtx`): evaluated at def time, it is read and held by the annotation, never
        run (honest round s36); anything else in an annotation (`[f][0](x)`) is code."""
        leaf = chain[-1] if chain else root
        return self._type_expression(leaf) and self.annotation_nodes().get(id(leaf)) is True and not any(
            part.startswith("_") for part in [*dotted.split("."), *(a.attr for a in chain)])

    def _jit_alias_definition(self, node: ast.expr) -> bool:
        """`Alias = triton.next_power_of_2` (or `tl_math = tl.math`) at module level, the alias
        bound only there."""
        assign = self.parent.get(id(node))
        if not (isinstance(assign, ast.Assign) and assign.value is node
                and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
            return False
        bindings = self.scopes.module.names.get(assign.targets[0].id, [])
        return len(bindings) == 1 and self._jit_alias(bindings[0], self.scopes.module) is not None

    def _called(self, node: ast.expr) -> bool:
        call = self.parent.get(id(node))
        return isinstance(call, ast.Call) and call.func is node

    def attribute(self, node: ast.Attribute, owner: str) -> None:
        """The rules for `x.name` on an object whose type the checker cannot know."""
        name = node.attr
        if name in ("format", "format_map"):  # called or not (`map("{0.x}".format, xs)`)
            self._format(node)
        if name in static_unicode.REFUSED_ATTRIBUTES:
            self.add(node, static_unicode.CODE, f"{static_unicode.REFUSED_ATTRIBUTES[name]}, and the CPU "
                     "check's Python and the GPU's read some characters apart", static_unicode.INSTEAD,
                     status="compile_error")
        if is_dunder(name):
            if self._names_a_name(node):
                return
            if not (name in A.DUNDER_ATTRIBUTES and self._init_call(node, owner)) and (
                    not self._frozen_field_store(node)):
                self.add(node, "reflection", f"the dunder attribute {name} reaches the "
                         "interpreter", "call super().__init__() in __init__ and nothing else "
                         "with double underscores")
        elif name.startswith("_") and (owner not in ("self", "member") or name in self.t.module_private):
            self.add(node, "reflection", f"the private attribute {name} is off limits (only "
                     "your own private attributes of self are allowed)")
        elif "hook" in name.lower():
            self.add(node, "monkey_patch", f"{name} installs or reaches hooks")
        elif name in A.DENIED_ATTRIBUTES:
            self.add(node, A.DENIED_ATTRIBUTES[name], f"the attribute {name} is not allowed")
        elif "storage" in name.lower() and name not in A.STORAGE_NAMES_ALLOWED:
            self.add(node, "file_access", f"{name} reaches a tensor's storage (raw memory that moves "
                     "to and from the host and files unseen, and a storage class that imports by name)",
                     "work on tensors; pass them to your kernels")
        elif name in self.t.class_attributes:
            self.add(node, "reflection", f"{name} hands out a class, whose attributes could "
                     "then be replaced and whose methods run with any object as self",
                     "name the class you mean directly (torch.Tensor, nn.Linear)")
        elif name.startswith(A.FRAME_PREFIXES):  # on self too: if self were ever not the
            # file's own instance (an unbound call), its frames must still be out of reach
            self.add(node, "reflection", f"{name} reaches frames or code objects")

    def _names_a_name(self, node: ast.Attribute) -> bool:
        """`f.__name__` and `self.__class__.__name__`, read: a string (no binding of the
        file can make a `__name__` anything else: dunder names are never bound)."""
        if not isinstance(node.ctx, ast.Load):
            return False
        if node.attr in A.NAME_ATTRIBUTES:
            return True
        outer = self.parent.get(id(node))
        return node.attr == "__class__" and isinstance(outer, ast.Attribute) and (
            outer.value is node and outer.attr in A.NAME_ATTRIBUTES and isinstance(outer.ctx, ast.Load))

    def _init_call(self, node: ast.Attribute, owner: str) -> bool:
        call = self.parent.get(id(node))
        if not (isinstance(call, ast.Call) and call.func is node):
            return False
        if owner == "super":
            return True
        kind, cls = self.resolve(node.value)
        is_class = self.qualify(node.value) in A.BASES or kind == "class"
        return is_class and bool(call.args) and self.resolve(call.args[0])[0] == "self"

    def _e_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _REFLECTIVE and self.resolve(
                func)[0] == "builtin":
            self._reflective(node, func.id)
            return
        if isinstance(func, ast.Name) and func.id == "super" and (
                node.args or node.keywords) and self.resolve(func)[0] == "builtin" and not (
                len(node.args) == 2 and not node.keywords and self.resolve(
                    node.args[0])[0] == "class" and self.resolve(node.args[1])[0] == "self"):
            self.add(node, "reflection", "super() with arguments other than (a class of the "
                     "file, self) hands out its bases' methods unbound, to run on any object",
                     "write super().method(...)")
        if isinstance(func, ast.Name) and func.id == "super" and not (node.args or node.keywords) and self.resolve(
                func)[0] == "builtin" and not self._method_as_function(self._enclosing_def(node)):
            self.add(node, "reflection", "super() outside a method whose first parameter is its instance "
                     "(a classmethod's is super(C, cls)) hands out its bases' methods unbound, to run on any object",
                     "call super().method(...) in a plain method of the class")
        self.expr(func)
        self.call_arguments(node)
        if (self.qualify(func) or "") in A.ASM_CALLS:
            self._asm(node)
        if (len(node.args) > 1 or node.keywords) and self._enum_class(func):
            self.add(node, "reflection", "calling an Enum class with members builds a class at run time, "
                     "whose members can name any method (__del__, __bool__)",
                     "define the enum as a class: class Color(enum.Enum): RED = 1")
        allowed = A.CALL_KEYWORDS.get(self.qualify(func) or "")
        if allowed is not None:
            bad = [str(k.arg) for k in node.keywords if k.arg not in allowed]
            bad += [f"{k.arg} (not a function of this file)" for k in node.keywords
                    if k.arg == "pre_hook" and not self._own_callable(k.value)]
            if bad:
                self.add(node, "harness_tamper", f"the keywords {', '.join(bad)} run code "
                         "inside Triton's launcher", f"pass only {', '.join(sorted(allowed))}"
                         " (a pre_hook: a def of this file, or what one returns)")

    def _asm(self, node: ast.Call) -> None:
        """Inline assembly: its text a literal, reading no clock register (A.CLOCK_REGISTERS)."""
        asm = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "asm"), None)
        if not (isinstance(asm, ast.Constant) and isinstance(asm.value, str)):
            self.add(node, "clock", "inline assembly whose text is computed (the checker reads it for "
                     "clock registers)", "write the assembly out as a string literal")
        elif A.CLOCK_REGISTERS.search(asm.value):
            self.add(node, "clock", f"inline assembly reads a clock register "
                     f"({A.CLOCK_REGISTERS.search(asm.value).group(0)})")

    def call_arguments(self, node: ast.Call) -> None:
        for arg in node.args:
            self.expr(arg)
        for keyword in node.keywords:
            self.expr(keyword.value)

    def _reflective(self, node: ast.Call, name: str) -> None:
        """getattr/hasattr/setattr/delattr: only a constant public name, as if written out."""
        attr = node.args[1] if len(node.args) >= 2 else None
        if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)
                and attr.value.isidentifier() and not is_dunder(attr.value)):
            code = "reflection" if name in ("getattr", "hasattr") else "monkey_patch"
            self.add(node, code, f"{name} needs a constant, public attribute name",
                     "write obj.name, or a dict from names to values")
            self.call_arguments(node)
            return
        obj = node.args[0]
        # hasattr on a module only asks whether it has what `module.name` would read, checked
        # as if written out (Triton's tutorial 03: `hasattr(torch, "float8_e5m2")`, honest round,
        # session 20); getattr, setattr and delattr on a module stay refused
        if self.qualify(obj) in self.t.namespaces and name != "hasattr":
            code = "reflection" if name == "getattr" else "monkey_patch"
            self.add(node, code, f"{name} on a module", f"write {self.snippet(obj)}.{attr.value} "
                     "directly (and never assign to a module)")
            return
        probing = name == "hasattr" or (name == "getattr" and len(node.args) + len(node.keywords) > 2)
        if probing and self.qualify(obj) not in self.t.namespaces and attr.value in gpu_names.probe_differs():
            # a library class has the name here and not on the GPU image, or the other way round
            # (evaluator.gpu_names): the probe answers one way here and the other there
            self.add(node, "unknown_api", f"{name}(..., {attr.value!r}) answers differently on the GPU "
                     f"image's libraries ({gpu_names.versions()}) than on this machine's",
                     "use only names both have, without probing", status="compile_error")
        fake = ast.copy_location(ast.Attribute(value=obj, attr=attr.value, ctx=ast.Load()), node)
        self.fakes.append(fake)  # alive while its id is a key of self.parent
        self.parent[id(fake)] = node
        self.parent[id(obj)] = fake
        if name in ("getattr", "hasattr"):
            self.expr(fake)
        else:
            self._attribute_store(fake)
        for extra in [*node.args[2:], *(k.value for k in node.keywords)]:
            self.expr(extra)

    def _e_Await(self, node: ast.expr) -> None:
        self.add(node, "forbidden_syntax", "generators and coroutines are not allowed",
                 "return a list or a tensor")

    _e_YieldFrom = _e_Await

    def _e_Yield(self, node: ast.Yield) -> None:
        """`yield` in a plain def with no try or with of its own: a generator that runs only
        when its consumer resumes it, as a generator expression does (allowed), with no code
        left to run when it is closed or collected (a `finally` or `__exit__` would run at a
        time the garbage collector picks). Chunking helpers are written this way (honest
        round, session 22)."""
        fn = self.scopes.enclosing_function(node)
        fn = fn.node if fn is not None else None
        if not isinstance(fn, ast.FunctionDef) or id(fn) in self.kernels:
            self._e_Await(node)
        elif _runs_at_close(fn):
            self.add(node, "forbidden_syntax", "a generator with a try or with block of its own can "
                     "stay suspended inside it (a context left entered, an exit run when the garbage "
                     "collector picks)", "yield outside try/with, or return a list")
        elif node.value is not None:
            self.expr(node.value)


def _runs_at_close(fn: ast.FunctionDef) -> bool:
    """Whether a function's own body (not the defs, lambdas or classes inside it) has a try or
    a with, whose handlers and exits a generator's close runs."""
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Try, ast.TryStar, ast.With, ast.AsyncWith)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False
