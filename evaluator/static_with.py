"""`with` statements in host code, for the static walk (evaluator.static_walk.Checker).

A `with` enters one of the allowed context managers (static_allowlist.CONTEXT_MANAGERS), or a
choice between such calls, each arm judged as if written alone; a profiler or NVTX range is
entered, never held.
"""
from __future__ import annotations

import ast

from evaluator import static_allowlist as A


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
        else:
            self.add(ctx, "forbidden_syntax", "this context manager is not allowed",
                     "use `with` only with torch.no_grad(), torch.inference_mode(), "
                     "torch.device(...) or torch.cuda.device(...)")
            self.expr(ctx)

    @staticmethod
    def _nvtx_range(ctx: ast.Call, item: ast.withitem) -> bool:
        """`with torch.cuda.nvtx.range("name"):` (or an f-string name), unheld: torch formats
        the message with the range's remaining arguments (`msg.format(*args, **kwargs)`), so
        none may follow it, and only a str has that str's format."""
        msg = ctx.args[0] if len(ctx.args) == 1 else None
        return (item.optional_vars is None and not ctx.keywords and (
            isinstance(msg, ast.JoinedStr) or isinstance(msg, ast.Constant) and isinstance(msg.value, str)))
