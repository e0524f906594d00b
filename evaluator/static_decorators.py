"""A decorator of the file's own that the static walk accepts by its exact shape (one of the
idioms of evaluator.static_idioms):

  transparent decorator  `def deco(fn): [@functools.wraps(fn)] def wrapper(a, *args, **kw):
                         ... fn(a, ...) ...; return wrapper` (Liger's ensure_contiguous).
                         `fn` is only ever called, with the wrapper's own first argument
                         (or its whole `*args`) first, so a method it decorates still gets
                         the object Python passed as its `self`/`ctx`; the wrapper's body
                         is checked like any function. `*args` may be handed on made
                         contiguous, by a comprehension of exactly fla's input_guard shape
                         (`[i if not isinstance(i, torch.Tensor) else i.contiguous() for i
                         in args]`). Never on a kernel or a class.
  identity decorator     `def deco(fn): return fn`, or its factory `def deco(): def inner(fn):
                         return fn; return inner` used as `@deco()` (FlagGems' libentry()
                         stubbed out where the library is not installed: honest round s51b).
                         It hands back the very object it is given, so it may stand on a
                         kernel too: what runs is the JITFunction the decorators below it made.
                         Bound once at module level, no parameter annotated or defaulted.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from evaluator.static_scopes import Binding, Scopes, sole_target


# ---------------------------------------------------------------------- decorators
class TransparentDecorators:
    """The file's decorators of the transparent shape, and their functools.wraps lines."""

    def __init__(self, tree: ast.Module, scopes: Scopes, qualify: Callable[[ast.AST], str | None],
                 kernels: dict[int, ast.FunctionDef]):
        self.scopes, self.qualify = scopes, qualify
        self.decorators: set[int] = set()  # id of the decorator's FunctionDef
        self.wraps: set[int] = set()  # id of an accepted @functools.wraps(fn) node
        self.identity: set[int] = set()  # `def deco(fn): return fn`
        self.identity_factories: set[int] = set()  # `def deco(): def inner(fn): return fn; return inner`
        shaped: dict[int, set[int]] = {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and id(node) not in kernels:
                wraps = self._shape(node)
                if wraps is not None:
                    shaped[id(node)] = wraps
                elif len(scopes.module.names.get(node.name, ())) == 1:
                    if _identity(node):
                        self.identity.add(id(node))
                    elif _identity_factory(node):
                        self.identity_factories.add(id(node))
        for deco, wraps in shaped.items():
            if self._only_on_own_defs(tree, deco, kernels):
                self.decorators.add(deco)
                self.wraps |= wraps

    def _only_on_own_defs(self, tree: ast.Module, deco: int, kernels: dict[int, ast.FunctionDef]) -> bool:
        """Whether every use of the decorator hands it a def of the file that is no kernel: as
        `@deco` over the def, or `deco(name)` of one. functools.wraps copies what it wraps,
        `__module__` and `__dict__` too, so `deco(tl.maximum)` made a function of the file's
        that Triton (its compiler and the interpreter alike) takes for a builtin by its
        `__triton_builtin__` and `__module__`, called with the kernel's values per program under
        the interpreter (red team rt73: a call counter traced once on the GPU)."""
        def own_def(name: ast.expr) -> bool:
            if not isinstance(name, ast.Name):
                return False
            bindings = self.scopes.lookup(name)[1]
            return bool(bindings) and all(b.kind == "def" and id(b.node) not in kernels
                                          and isinstance(b.node, ast.FunctionDef) for b in bindings)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Name) and any(
                    id(b.node) == deco for b in self.scopes.lookup(node)[1])):
                continue
            parent = self.scopes.parent.get(id(node))
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    d is node for d in parent.decorator_list):
                continue
            if not (isinstance(parent, ast.Call) and parent.func is node and len(parent.args) == 1
                    and not parent.keywords and own_def(parent.args[0])):
                return False
        return True

    def _shape(self, deco: ast.FunctionDef) -> set[int] | None:
        """The wraps nodes of a transparent decorator, None for any other function."""
        args = deco.args
        if deco.decorator_list or args.posonlyargs or len(args.args) != 1 or args.vararg or (
                args.kwonlyargs or args.kwarg or args.defaults):
            return None
        body = deco.body[1:] if _docstring(deco.body[0]) else deco.body
        if len(body) == 3 and self._memo(deco, body[0]):
            body = body[1:]  # a memoising decorator: `cache = {}` first (honest round s31c)
        if len(body) != 2 or not isinstance(body[0], ast.FunctionDef):
            return None
        wrapper, ret = body
        if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Name)
                and ret.value.id == wrapper.name and self._binds(ret.value, wrapper)):
            return None
        param = self._param(args.args[0])
        wraps = set()
        for dec in wrapper.decorator_list:
            if not (isinstance(dec, ast.Call) and self.qualify(dec.func) == "functools.wraps"
                    and not dec.keywords and len(dec.args) == 1
                    and isinstance(dec.args[0], ast.Name) and self._is(dec.args[0], param)):
                return None
            wraps.add(id(dec))
        first = self._passed_through(wrapper)
        if first is None:
            return None
        for node in ast.walk(deco):
            if isinstance(node, ast.Name) and node.id == args.args[0].arg and (
                    node is not args.args[0]) and not any(node is d.args[0] for d in
                                                          wrapper.decorator_list):
                call = self.scopes.parent.get(id(node))
                if not (self._is(node, param) and isinstance(call, ast.Call)
                        and call.func is node and self._first_is(call, first, wrapper, param)):
                    return None
        return wraps

    def _memo(self, deco: ast.FunctionDef, first: ast.stmt) -> bool:
        """`cache = {}` (or `dict()`) as the decorator's first statement, the name used only as
        `key in cache`, `key not in cache`, `cache[key]` and `cache[key] = ...`: the cache
        `functools.lru_cache` already is, spelled out (Liger's and FlagGems' config caches)."""
        target = sole_target(first)
        if not isinstance(target, ast.Name):
            return False
        value, name = first.value, target.id  # type: ignore[attr-defined]
        if not (isinstance(value, ast.Dict) and not value.keys or isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name) and value.func.id == "dict"
                and not value.args and not value.keywords and not self.scopes.lookup(value.func)[1]):
            return False
        for node in ast.walk(deco):
            if not isinstance(node, ast.Name) or node.id != name or node is target:
                continue
            parent = self.scopes.parent.get(id(node))
            subscript = isinstance(parent, ast.Subscript) and parent.value is node
            member = isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(
                parent.ops[0], (ast.In, ast.NotIn)) and parent.comparators[0] is node
            if not (subscript or member):
                return False
        return True

    def _passed_through(self, wrapper: ast.FunctionDef) -> tuple[str, Binding] | None:
        """What the wrapper hands on first: its first positional parameter, or else its
        whole *args (a parameter bound nowhere else in it)."""
        args = wrapper.args
        positional = [*args.posonlyargs, *args.args]
        if positional:
            return "arg", self._param(positional[0])
        if args.vararg is not None:
            return "star", self._param(args.vararg)
        return None

    def _first_is(self, call: ast.Call, first: tuple[str, Binding], wrapper: ast.FunctionDef,
                  fn: Binding) -> bool:
        if not call.args:
            return False
        head = call.args[0]
        kind, binding = first
        if kind == "star":
            return isinstance(head, ast.Starred) and isinstance(head.value, ast.Name) and (
                self._is(head.value, binding) or self._contiguous_copy(head.value, binding, wrapper, fn))
        return isinstance(head, ast.Name) and self._is(head, binding)

    def _contiguous_copy(self, name: ast.Name, star: Binding, wrapper: ast.FunctionDef,
                         fn: Binding) -> bool:
        """Whether `name` (read as `fn(*name, ...)`) is the wrapper's *args made contiguous:
        bound once in the wrapper, by `name = [i if not isinstance(i, torch.Tensor) else
        i.contiguous() for i in args]` (a list, a generator, or `tuple`/`list` of one; the
        condition either way round), and read nowhere but as the first `*` of calls of fn
        (fla's input_guard: honest round s46). Every element is the argument Python passed, in
        its place, a tensor made contiguous: a trusted `self`/`ctx` is never a tensor (its class
        has no tensor base and binds no dunder), so it is handed on unchanged. A generator is
        read only by `return fn(*name, ...)` statements of the wrapper itself, so at most once
        (a second read would find it empty)."""
        scope, bindings = self.scopes.lookup(name)
        own = [b for b in bindings if b is not star]  # `args = [...] for arg in args]` rebinds *args
        if scope is None or scope.node is not wrapper or len(own) != 1:
            return False
        target = own[0].node
        assign = self.scopes.parent.get(id(target))
        if not (own[0].kind == "local" and isinstance(assign, ast.Assign)
                and assign.targets == [target] and isinstance(target, ast.Name)):
            return False
        value = assign.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and (
                value.func.id in ("tuple", "list") and self._builtin(value.func)
                and len(value.args) == 1 and not value.keywords
                and isinstance(value.args[0], ast.GeneratorExp)):
            value = value.args[0]  # consumed by the call, at once
        if not (isinstance(value, (ast.ListComp, ast.GeneratorExp)) and len(value.generators) == 1):
            return False
        gen = value.generators[0]
        if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name) or not (
                isinstance(gen.iter, ast.Name) and (self._is(gen.iter, star) or (
                    gen.iter.id == name.id and self.scopes.lookup(gen.iter)[1] == bindings))):
            return False
        if not self._contiguous_element(value.elt, gen.target):
            return False
        reads = [n for n in ast.walk(wrapper) if isinstance(n, ast.Name) and n.id == name.id
                 and n is not target and n is not gen.iter and self.scopes.lookup(n)[1] == bindings]
        for read in reads:
            star_node = self.scopes.parent.get(id(read))
            call = self.scopes.parent.get(id(star_node))
            if not (isinstance(star_node, ast.Starred) and isinstance(call, ast.Call)
                    and call.args and call.args[0] is star_node and isinstance(call.func, ast.Name)
                    and self._is(call.func, fn)):
                return False
        for read in reads if isinstance(value, ast.GeneratorExp) else ():
            call = self.scopes.parent.get(id(self.scopes.parent.get(id(read))))
            ret = self.scopes.parent.get(id(call))
            enclosing = self.scopes.enclosing_function(call)
            if not (isinstance(ret, ast.Return) and ret.value is call
                    and enclosing is not None and enclosing.node is wrapper):
                return False
        return True

    def _contiguous_element(self, elt: ast.expr, item: ast.Name) -> bool:
        """`i if not isinstance(i, torch.Tensor) else i.contiguous()`, or `i.contiguous() if
        isinstance(i, torch.Tensor) else i`, i the comprehension's own variable, isinstance the
        builtin; or `helper(i)` of a def bound once whose whole body returns that expression of
        its one parameter (Liger's `maybe_to_contiguous`: honest round s57g)."""
        if isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and len(elt.args) == 1 \
                and not elt.keywords and self._item(elt.args[0], item):
            _, bindings = self.scopes.lookup(elt.func)
            helper = bindings[0].node if len(bindings) == 1 else None
            if not (isinstance(helper, ast.FunctionDef) and not helper.decorator_list
                    and not helper.args.posonlyargs and len(helper.args.args) == 1
                    and not (helper.args.vararg or helper.args.kwonlyargs or helper.args.kwarg
                             or helper.args.defaults) and len(helper.body) == 1
                    and isinstance(helper.body[0], ast.Return) and helper.body[0].value is not None):
                return False
            param = self._param(helper.args.args[0])
            return self._contiguous_ifexp(helper.body[0].value, lambda n: isinstance(
                n, ast.Name) and self._is(n, param))
        return self._contiguous_ifexp(elt, lambda n: self._item(n, item))

    def _contiguous_ifexp(self, elt: ast.expr, is_item: Callable[[ast.expr], bool]) -> bool:
        if not isinstance(elt, ast.IfExp):
            return False
        test, keep, made = elt.test, elt.body, elt.orelse
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test = test.operand
        else:
            keep, made = made, keep
        return (self._tensor_test(test, is_item) and is_item(keep)
                and isinstance(made, ast.Call) and not made.args and not made.keywords
                and isinstance(made.func, ast.Attribute) and made.func.attr == "contiguous"
                and is_item(made.func.value))

    def _tensor_test(self, test: ast.expr, is_item: Callable[[ast.expr], bool]) -> bool:
        return (isinstance(test, ast.Call) and isinstance(test.func, ast.Name)
                and test.func.id == "isinstance" and self._builtin(test.func)
                and not test.keywords and len(test.args) == 2 and is_item(test.args[0])
                and self.qualify(test.args[1]) == "torch.Tensor")

    def _item(self, node: ast.expr, item: ast.Name) -> bool:
        """`node` is the comprehension variable `item` (bound only by its `for`)."""
        if not isinstance(node, ast.Name) or node.id != item.id:
            return False
        _, bindings = self.scopes.lookup(node)
        return len(bindings) == 1 and bindings[0].node is item

    def _builtin(self, name: ast.Name) -> bool:
        return not self.scopes.lookup(name)[1]

    def _param(self, arg: ast.arg) -> Binding:
        scope = self.scopes.of_node[id(arg)]
        return next(b for b in scope.names[arg.arg] if b.node is arg)

    def _is(self, name: ast.Name, binding: Binding) -> bool:
        """Whether `name` names exactly `binding` (no other binding of it in that scope)."""
        _, bindings = self.scopes.lookup(name)
        return len(bindings) == 1 and bindings[0] is binding

    def _binds(self, name: ast.Name, fn: ast.FunctionDef) -> bool:
        _, bindings = self.scopes.lookup(name)
        return len(bindings) == 1 and bindings[0].node is fn


def _identity(fn: ast.stmt) -> bool:
    """`def deco(fn): return fn` (a docstring allowed): one plain parameter, handed back."""
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or fn.returns is not None:
        return False
    args = fn.args
    if args.posonlyargs or len(args.args) != 1 or args.vararg or args.kwonlyargs or args.kwarg or (
            args.defaults or args.args[0].annotation is not None):
        return False
    body = fn.body[1:] if _docstring(fn.body[0]) else fn.body
    return len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Name) and (
        body[0].value.id == args.args[0].arg)


def _identity_factory(fn: ast.FunctionDef) -> bool:
    """`def deco(): def inner(fn): return fn; return inner`: no parameters, an identity def,
    and that def handed back."""
    args = fn.args
    if fn.decorator_list or fn.returns is not None or args.posonlyargs or args.args or args.vararg or (
            args.kwonlyargs or args.kwarg):
        return False
    body = fn.body[1:] if _docstring(fn.body[0]) else fn.body
    return len(body) == 2 and _identity(body[0]) and isinstance(body[1], ast.Return) and isinstance(
        body[1].value, ast.Name) and body[1].value.id == body[0].name  # type: ignore[attr-defined]


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and (
        isinstance(node.value.value, str))
