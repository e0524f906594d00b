"""`with` statements in host code, for the static walk (evaluator.static_walk.Checker).

A `with` enters one of the allowed context managers (static_allowlist.CONTEXT_MANAGERS), the
device manager of `torch.get_device_module(...)`, or a choice between such calls, each arm judged as if written alone, or a function's local that
only such calls bind and only that `with` reads; a profiler or NVTX range is entered, never
held.
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A
from evaluator.static_scopes import sole_target

# Managers a factory may hand back: the plain ones (a range has rules on its call's own form).
_FACTORY_MANAGERS = A.CONTEXT_MANAGERS - A.RANGES - A.NVTX_RANGES


class WithStatements:
    """The walker's `with` handlers (a mixin of Checker, which supplies add/expr/body/target/
    qualify/call_arguments)."""

    def _s_With(self, node: ast.With) -> None:
        for item in node.items:
            self._context(item.context_expr, item)
            if item.optional_vars is not None:
                self.target(item.optional_vars)
        self.body(node.body)

    def _context(self, ctx: ast.expr, item: ast.withitem) -> None:
        """One `with` item's manager: a call of CONTEXT_MANAGERS, or a choice between such
        calls (`torch.cuda.device(x.device) if x.is_cuda else nullcontext()`, honest round
        s49), each arm held to the same rules as if written alone."""
        if isinstance(ctx, ast.IfExp):
            self.expr(ctx.test)
            self._context(ctx.body, item)
            self._context(ctx.orelse, item)
            return
        manager = self.qualify(ctx.func) if isinstance(ctx, ast.Call) else None
        if manager in A.RANGES and item.optional_vars is not None:
            self.add(ctx, "forbidden_syntax", "a profiler range is entered, never held "
                     "(its object holds the profiler's handle)", "write `with "
                     "torch.profiler.record_function(name):` without `as`")
        if manager in A.NVTX_RANGES and not self._nvtx_range(ctx, item):  # type: ignore[arg-type]
            self.add(ctx, "forbidden_syntax", "an NVTX range takes one message, a string "
                     "literal or f-string, and is entered, never held (its message is "
                     "formatted with the range's other arguments, which reaches their attributes)",
                     "write `with torch.cuda.nvtx.range(\"name\"):` without `as`")
        elif isinstance(ctx, ast.Call) and manager in A.CONTEXT_MANAGERS:
            self.call_arguments(ctx)
        elif isinstance(ctx, ast.Call) and self._factory(ctx.func):
            self.call_arguments(ctx)
        elif isinstance(ctx, ast.Name) and item.optional_vars is None and self._held_manager(ctx):
            pass  # its calls are judged where they are assigned
        elif isinstance(ctx, ast.Call) and item.optional_vars is None and self._device_module_manager(ctx):
            self.call_arguments(ctx.func.value)  # type: ignore[attr-defined]
            self.call_arguments(ctx)
        else:
            self.add(ctx, "forbidden_syntax", "this context manager is not allowed",
                     "use `with` only with torch.no_grad(), torch.inference_mode(), "
                     "torch.device(...) or torch.cuda.device(...)")
            self.expr(ctx)

    def range_only(self, name: str) -> bool:
        """`from torch.profiler import record_function` (honest round s68): every read of the name
        is the function of a `with` item's call, `with record_function("name"):`, which `_context`
        then holds to the rules of the range written out; anywhere else the import is refused as
        any name of torch.profiler is (the import is the name's only binding: another one is
        refused as a rebinding of an imported name)."""
        uses = self._names().get(name, ())  # type: ignore[attr-defined]
        return all(isinstance(n.ctx, ast.Load) and isinstance(call := self.parent.get(id(n)), ast.Call)  # type: ignore[attr-defined]
                   and call.func is n and isinstance(self.parent.get(id(call)), ast.withitem)  # type: ignore[attr-defined]
                   for n in uses)

    def _factory(self, func: ast.expr) -> bool:
        """A module-level context-manager factory, unsloth's `torch_gpu_device` (honest round
        s50k): every binding of the name is a plain def whose body is one `return` of an allowed
        manager's call (or a choice between such calls), or an alias of an allowed manager
        (`torch_gpu_device = torch.cuda.device` on the other arm of a device-count if); the
        `with` then enters what writing that call out would."""
        if not isinstance(func, ast.Name):
            return False
        scope, bindings = self.scopes.lookup(func)  # type: ignore[attr-defined]
        return bool(bindings) and scope is self.scopes.module and all(  # type: ignore[attr-defined]
            self._factory_binding(b) for b in bindings)

    def _factory_binding(self, b: object) -> bool:
        node = b.node  # type: ignore[attr-defined]
        if b.kind == "def":  # type: ignore[attr-defined]
            body = node.body[1:] if _docstring(node.body[0]) else node.body
            return isinstance(node, ast.FunctionDef) and not node.decorator_list and (
                id(node) not in self.kernels) and len(body) == 1 and (  # type: ignore[attr-defined]
                isinstance(body[0], ast.Return)) and self._manager_call(body[0].value)
        assign = self.parent.get(id(node))  # type: ignore[attr-defined]
        return b.kind == "local" and isinstance(assign, ast.Assign) and (  # type: ignore[attr-defined]
            sole_target(assign) is node) and self.qualify(assign.value) in _FACTORY_MANAGERS  # type: ignore[attr-defined]

    def _held_manager(self, name: ast.Name) -> bool:
        """`with ctx:` where ctx is a local of the function the `with` is in, every binding of it
        `ctx = <a call of an allowed manager or factory>` (or a choice between such calls), and
        this `with` the name's only read: fla's input_guard (`ctx = custom_device_ctx(index)` /
        `ctx = contextlib.nullcontext()`, then `with ctx:`; honest round s52). It enters what
        writing one of those calls out would. Read anywhere else (an attribute, an argument, a
        second `with` that could re-enter the same object and lose the state its __exit__
        restores) the manager object is refused as before."""
        scope, bindings = self.scopes.lookup(name)  # type: ignore[attr-defined]
        if not bindings or scope is None or scope is self.scopes.module or (  # type: ignore[attr-defined]
                scope is not self.scopes.enclosing_function(name)):  # type: ignore[attr-defined]
            return False
        for b in bindings:
            assign = self.parent.get(id(b.node))  # type: ignore[attr-defined]
            if not (b.kind == "local" and isinstance(assign, ast.Assign) and sole_target(assign) is b.node and (
                    self._manager_call(assign.value) or isinstance(assign.value, ast.Call)
                    and self._factory(assign.value.func))):
                return False
        reads = [n for n in ast.walk(scope.node) if isinstance(n, ast.Name) and n.id == name.id
                 and not isinstance(n.ctx, ast.Store) and self.scopes.lookup(n)[1] == bindings]  # type: ignore[attr-defined]
        return reads == [name]

    def _device_module_manager(self, ctx: ast.Call) -> bool:
        """`with torch.get_device_module().device(x.device):` (SGLang's diffusion kernels, honest
        round s54): the device-agnostic spelling of `torch.cuda.device(...)`, entered, never held.
        torch.get_device_module hands out the whole module of the accelerator (torch.cuda on the
        GPU, and in a CPU child too: device_answers); only its `device` manager is called here,
        with the arguments judged as any call's. Anywhere else the name stays refused."""
        func = ctx.func
        probe = func.value if isinstance(func, ast.Attribute) and func.attr == "device" else None
        return isinstance(probe, ast.Call) and self.qualify(probe.func) == "torch.get_device_module" and (  # type: ignore[attr-defined]
            len(probe.args) + len(probe.keywords) <= 1) and all(k.arg == "device" for k in probe.keywords)

    def _manager_call(self, expr: ast.expr | None) -> bool:
        if isinstance(expr, ast.IfExp):
            return self._manager_call(expr.body) and self._manager_call(expr.orelse)
        return isinstance(expr, ast.Call) and self.qualify(expr.func) in _FACTORY_MANAGERS  # type: ignore[attr-defined]

    @staticmethod
    def _nvtx_range(ctx: ast.Call, item: ast.withitem) -> bool:
        """`with torch.cuda.nvtx.range("name"):` (or an f-string name), unheld: torch formats
        the message with the range's remaining arguments (`msg.format(*args, **kwargs)`), so
        none may follow it, and only a str has that str's format."""
        msg = ctx.args[0] if len(ctx.args) == 1 else None
        return (item.optional_vars is None and not ctx.keywords and (
            isinstance(msg, ast.JoinedStr) or isinstance(msg, ast.Constant) and isinstance(msg.value, str)))


def _docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
