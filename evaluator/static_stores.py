"""Assignment targets of a candidate file against the allowlist: what a line may write to.

The other half of evaluator.static_expressions (a mixin of its ExpressionChecker): a name
may be bound; an attribute only on `self` (not its methods, dunders or internals; on an
object self holds, or a local bound once to one or a helper's parameter every call hands one,
only the A.NESTED_STORES), on `ctx`, or a pre_hook's
`nargs["x_desc"].block_shape`; a subscript only of a local, of self's attributes or of a
module-level cache of the file's own. Process-wide switches (torch.backends) are never set
here (a literal one at module level is evaluator.static_settings', checked before).
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A
from evaluator.static_scopes import sole_target

# torch.nn classes whose items (what a subscript gives) are registered modules only
_MODULE_CONTAINERS = frozenset({"torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict"})


class StoreChecks:
    """Assignment and deletion targets (used with static_names.Resolver: resolve, scopes,
    qualify, parent, methods, add, expr)."""

    # ------------------------------------------------------------------ assignment
    def target(self, node: ast.expr) -> None:
        if isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                self.target(elt)
        elif isinstance(node, ast.Starred):
            self.target(node.value)
        elif isinstance(node, ast.Attribute):
            self._attribute_store(node)
        elif isinstance(node, ast.Subscript):
            self._subscript_store(node)
        elif not isinstance(node, ast.Name):
            self.add(node, "forbidden_syntax", "this assignment target is not allowed")

    def _argument_entry(self, node: ast.expr) -> bool:
        """`nargs["x_desc"]`: an entry, by a literal string, of a dict a function of the file was
        handed as a plain parameter (a Config pre_hook's launch arguments). What it writes
        there is one of the launch's own arguments, checked at the launch (launch_args): a host
        TensorDescriptor's block shape must be ints (honest round, session 21)."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            return False
        scope, bindings = self.scopes.lookup(node.value)
        return len(bindings) == 1 and bindings[0].kind == "param" and self.resolve(node.value)[0] == "local"

    def _attribute_store(self, node: ast.Attribute) -> None:
        name, owner = node.attr, self.resolve(node.value)[0]
        root = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        on_self = self.resolve(root)[0] == "self" or self._self_alias(root) or self._self_param(root)
        if owner == "ctx":
            ok = not name.startswith("_") and name not in self.t.ctx_reserved and (
                name not in self.methods)
        else:
            ok = on_self and not is_dunder(name) and (
                name not in self.methods or self._own_setter(node, name)) and not (
                name.startswith("_") and (owner != "self" or name in self.t.module_private))
        direct = owner in ("self", "ctx") and isinstance(node.value, ast.Name)
        kind, target = self.resolve(root)
        if kind == "import" and str(target).split(".")[0] == "torch" and (
                ast.unparse(node).split(".", 1)[-1].startswith("backends")):
            self.add(node, "harness_tamper", "sets a process-wide PyTorch switch (torch.backends), "
                     "which changes how the reference and the harness compute",
                     "read the switches if you must; never set them")
            return
        if name == "block_shape" and self._argument_entry(node.value):
            return  # a TMA autotune pre_hook: `nargs["x_desc"].block_shape = [BM, BK]` (tutorials 06, 09)
        if not (on_self or owner == "ctx"):
            self.add(node, "monkey_patch", "assigns or deletes an attribute of something "
                     "other than self (a module, class or library object)",
                     "keep state in attributes of self (self.x = ...)")
        elif not direct and name not in A.NESTED_STORES:
            self.add(node, "monkey_patch", f"assigns {name} on an object held by self: such an "
                     "object may be one the libraries share (tl.float32, a Config), which every "
                     "later use in the process would see",
                     "keep state in direct attributes of self (self.x = ...)")
        elif not ok or "hook" in name.lower():
            self.add(node, "monkey_patch", f"rebinds {name}, a method, dunder, hook or "
                     "internal of the object", "give your attribute a new name")
        if self.resolve(root)[0] == "import":
            self._e_Attribute(node)  # what the written name is (torch.backends: tamper)
        else:
            self.expr(node.value)

    def _self_alias(self, name: ast.expr) -> bool:
        """A local each of whose bindings in its function is `bn = self.bn` or `bn =
        self.layers[0].norm` (a chain of attributes and subscripts on self, no call), that
        chain's element of `bn, conv = self.seq[0], self.seq[2]`, or a `for` target over self's
        members (`_self_members`): it names an object self holds, so a store on it is judged as
        the chain's own (only A.NESTED_STORES), and `bn.num_batches_tracked += 1` is
        `self.bn.num_batches_tracked += 1` (honest round s54k: a training-mode BatchNorm's
        running statistics kept through a local alias). One binding of anything else (`bn =
        None`, a call, a parameter) and the local is not self's."""
        if not isinstance(name, ast.Name) or self.resolve(name)[0] != "local":
            return False
        scope, bindings = self.scopes.lookup(name)
        if not bindings or scope is not self.scopes.enclosing_function(name):
            return False
        return all(b.kind == "local" and self._bound_to_self(b.node) for b in bindings)

    def _bound_to_self(self, node: ast.AST) -> bool:
        holder = self.parent.get(id(node))
        if isinstance(holder, ast.For) and holder.target is node:
            return self._self_members(holder.iter)
        assign = self.parent.get(id(holder)) if isinstance(holder, ast.Tuple) else holder
        if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1):
            return False
        value = None
        if assign.targets[0] is node:
            value = assign.value
        elif assign.targets[0] is holder and isinstance(assign.value, ast.Tuple) and len(
                assign.value.elts) == len(holder.elts) and not any(
                isinstance(e, ast.Starred) for e in holder.elts + assign.value.elts):
            value = next(v for t, v in zip(holder.elts, assign.value.elts) if t is node)
        if not isinstance(value, (ast.Attribute, ast.Subscript)):
            return False
        while isinstance(value, (ast.Attribute, ast.Subscript)):
            value = value.value
        return self.resolve(value)[0] == "self"

    def _self_members(self, it: ast.expr) -> bool:
        """What a `for` over it binds is held by self: a literal tuple or list of chains on self
        (`for bn in (self.bn1, self.bn2)`), or modules(), children(), parameters() or buffers()
        called with no arguments on self or on `self.name[...]` where every store of an
        attribute `name` in the file is `self.name = nn.<Class>(...)` (a torch.nn module or the file's
        subclass of one, whose subscripts are its registered modules): nn.Module's own, where no class of the file
        defines a method of that name (an nn.Module's override is refused). Red team rt70: a
        plain class's `def parameters(self)`, or a namedtuple with a `modules` field, held by
        self, handed out what the file chose (the input)."""
        if isinstance(it, (ast.Tuple, ast.List)):
            return bool(it.elts) and all(
                isinstance(e, (ast.Attribute, ast.Subscript)) and self._self_chain(e) for e in it.elts)
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args
                and not it.keywords and it.func.attr in ("modules", "children", "parameters", "buffers")):
            return False
        if it.func.attr in self._walked()[0]:
            return False
        owner = it.func.value
        while isinstance(owner, ast.Subscript):
            owner = owner.value
        if self.resolve(owner)[0] == "self":
            return owner is it.func.value
        return isinstance(owner, ast.Attribute) and self.resolve(owner.value)[0] == "self" and (
            self._torch_module_attribute(owner.attr, owner is not it.func.value))

    def _torch_module_attribute(self, name: str, indexed: bool) -> bool:
        """Every store of an attribute `name` in the file (on any object) is the sole target
        of `... = nn.<Class>(...)`, a torch.nn module class (or the file's subclass of one)
        called, and there is one; where the chain `indexed` it, a container whose items are
        registered modules (nn.Sequential, nn.ModuleList, nn.ModuleDict; an nn.ParameterList
        or ParameterDict holds any object appended to it: red team rt70's namedtuple)."""
        stores = self._walked()[1].get(name, [])
        for node in stores:
            assign = self.parent.get(id(node))
            if not (isinstance(assign, ast.Assign) and assign.targets == [node]
                    and isinstance(assign.value, ast.Call)):
                return False
            if not self._nn_class(assign.value.func, set()) or indexed and self.qualify(
                    assign.value.func) not in _MODULE_CONTAINERS:
                return False
        return bool(stores)

    def _walked(self) -> tuple[set[str], dict[str, list[ast.Attribute]]]:
        """The file's def names and its attribute stores and deletes by name, walked once."""
        found = self.__dict__.get("_store_walk")
        if found is None:
            defs: set[str] = set()
            stores: dict[str, list[ast.Attribute]] = {}
            for n in ast.walk(self.tree):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs.add(n.name)
                elif isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load):
                    stores.setdefault(n.attr, []).append(n)
            found = self.__dict__["_store_walk"] = (defs, stores)
        return found

    def _nn_class(self, node: ast.expr, seen: set) -> bool:
        """A torch.nn module class (`nn.Sequential`), or a class of the file derived from one."""
        qualified = self.qualify(node) or ""
        if qualified.startswith("torch.nn.") and not qualified.startswith("torch.nn.functional."):
            return qualified.rsplit(".", 1)[-1][:1].isupper()
        name = self.file_class(node)
        if name is None or name in seen:
            return False
        seen.add(name)
        return any(self._nn_class(b, seen) for b in self.classes[name].bases)

    def _self_chain(self, node: ast.expr) -> bool:
        """A chain of attributes and subscripts on self (no call), or a local alias of one."""
        if not isinstance(node, (ast.Attribute, ast.Subscript)):
            return self._self_alias(node)
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return self.resolve(node)[0] == "self"

    def _self_param(self, name: ast.expr) -> bool:
        """A parameter of an undecorated module-level def, bound only as the parameter, without
        a default, where every use of the def in the file is a call handing that parameter a
        chain on self (`_update_stats(self.bn, mean, var)`, or a local alias of one): it names
        an object self holds, as `_self_alias`'s local does. A def used any other way (a value,
        a call with *args or **kwargs, an argument not on self) keeps its parameters "not self"."""
        if not isinstance(name, ast.Name):
            return False
        scope, bindings = self.scopes.lookup(name)
        if len(bindings) != 1 or bindings[0].kind != "param" or scope is None:
            return False
        fn, arg = scope.node, bindings[0].node
        if not (isinstance(fn, ast.FunctionDef) and self.parent.get(id(fn)) is self.tree
                and not fn.decorator_list):
            return False
        # a call's positional arguments fill the positional-only parameters first (red team
        # rt70: `def h(p, /, t)` read t's value off `h(self.w, x)`'s first argument, self.w)
        positional = [*fn.args.posonlyargs, *fn.args.args]
        if not any(a is arg for a in positional):
            return False
        index = next(i for i, a in enumerate(positional) if a is arg)
        if index >= len(positional) - len(fn.args.defaults):
            return False
        keyword = arg.arg if not any(a is arg for a in fn.args.posonlyargs) else None
        calls = 0
        for node in ast.walk(self.tree):
            if not (isinstance(node, ast.Name) and node.id == fn.name):
                continue
            _, found = self.scopes.lookup(node)
            if not found or all(b.node is not fn for b in found):
                continue
            call = self.parent.get(id(node))
            if not (isinstance(node.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is node) or any(
                    isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return False
            given = call.args[index] if index < len(call.args) else next(
                (k.value for k in call.keywords if keyword is not None and k.arg == keyword), None)
            if given is None or not self._self_chain(given):
                return False
            calls += 1
        return calls > 0

    def _own_setter(self, node: ast.Attribute, name: str) -> bool:
        """`self.name = value` in a method of the class whose accepted `@name.setter`
        (static_class_body `_property_setter`) it runs: the property's own assignment."""
        fn = self.scopes.enclosing_function(node)
        cls = self.parent.get(id(fn.node)) if fn is not None else None
        return isinstance(node.value, ast.Name) and isinstance(cls, ast.ClassDef) and any(
            isinstance(s, ast.FunctionDef) and s.name == name and len(s.decorator_list) == 1
            and self._property_setter(s, s.decorator_list[0]) for s in cls.body)

    def _subscript_store(self, node: ast.Subscript) -> None:
        root = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.func if isinstance(root, ast.Call) else root.value
        kind, scope = self.resolve(root)
        inside = self.scopes.enclosing_function(node) is not None
        if kind not in ("self", "ctx", "local") or (
                kind == "local" and inside and scope is self.scopes.module
                and not (node.value is root and self._own_container(root))):
            self.add(node, "monkey_patch", "writes into an object that is not a local of "
                     "this function or an attribute of self", "write into local tensors or "
                     "self's attributes; cache with functools.lru_cache")
        self.expr(node.value)
        self.expr(node.slice)

    def _own_container(self, name: ast.expr) -> bool:
        """A module-level cache of the file's own (`_CACHE = {}` bound once, at module level, to
        a dict/list/set display or an empty dict()/list()/set()): `_CACHE[key] = v` in a
        function writes only into it (not into what it holds: `_CACHE[k][j] = v` is refused)."""
        bindings = self.scopes.module.names.get(getattr(name, "id", ""), [])
        assign = self.parent.get(id(bindings[0].node)) if len(bindings) == 1 else None
        if not (bindings and sole_target(assign) is bindings[0].node
                and isinstance(self.parent.get(id(assign)), ast.Module)):
            return False
        value = assign.value
        return isinstance(value, (ast.Dict, ast.List, ast.Set)) or (
            isinstance(value, ast.Call) and not value.args and not value.keywords
            and self.qualify(value.func) in ("dict", "list", "set"))


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def literal(node: ast.AST, leaf=None) -> bool:
    """A constant: literals (and what `leaf` accepts: a class body's dtypes and math calls,
    evaluator.static_walk) and containers, dicts and arithmetic of them."""
    if isinstance(node, ast.Constant) or (leaf is not None and leaf(node)):
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(literal(e, leaf) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and literal(k, leaf) for k in node.keys) and all(
            literal(v, leaf) for v in node.values)
    if isinstance(node, ast.UnaryOp):
        return literal(node.operand, leaf)
    if isinstance(node, ast.BinOp):
        return literal(node.left, leaf) and literal(node.right, leaf)
    return False
