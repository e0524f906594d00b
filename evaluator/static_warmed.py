"""A warmed kernel: Triton tutorial 02's occupancy query (session 53), admitted as exactly its idiom.

    kernel = softmax_kernel.warmup(y, x, ..., BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, grid=(1, ))
    kernel._init_handles()
    n_regs = kernel.n_regs
    size_smem = kernel.metadata.shared
    kernel[(num_programs, 1, 1)](y, x, ..., BLOCK_SIZE, num_stages)

Triton's warmup hands out a CompiledKernel (its `.run`, `.function`, `.asm` and own launcher
reach the driver past the launch hooks); in the candidate's process `warmup` answers a
harness-owned view instead (evaluator.warmed_kernel: plain values, a launcher through the
JITFunction). The static layer admits the view only in the tutorial's shape, so nothing else of
it, or of what a future Triton might hand out, is reachable:
  - a name bound once, in a function, by `NAME = K.warmup(args..., grid=...)` as a statement,
    where K names a module-level `@triton.jit` kernel of the file (not autotuned, not
    heuristics, not a kernel held as a value), with no `*args`/`**kwargs` in the call;
  - every other mention of NAME is `NAME._init_handles()` as a statement, a read of
    `NAME.n_regs` or `NAME.n_spills`, a read of `NAME.metadata.shared`, `.num_warps` or
    `.num_stages`, or a launch `NAME[grid](...)` as a statement. It is never handed anywhere,
    returned, stored, aliased, or read in a nested function.
Such a name resolves as `warmed` (evaluator.static_names); K's `.warmup` is its one attribute
read outside the launch.
"""
from __future__ import annotations

import ast

from evaluator.static_scopes import Binding, sole_target

WARMED_READS = frozenset({("n_regs",), ("n_spills",), ("metadata", "shared"), ("metadata", "num_warps"),
                          ("metadata", "num_stages")})
WARMED_INSTEAD = ("write the occupancy query as Triton tutorial 02 does: `k = kernel.warmup(..., grid=(1, ))` "
                  "in the function that launches, then only `k._init_handles()`, `k.n_regs`, `k.n_spills`, "
                  "`k.metadata.shared` / `.num_warps` / `.num_stages` and `k[grid](...)` as a statement")


class WarmedKernels:
    """Which names are warmed kernels, and how they may be used (a mixin of Resolver)."""

    def warm_call(self, call: ast.AST | None) -> bool:
        """`K.warmup(...)` as the whole value of `NAME = ...` in a function, K a plain
        module-level @triton.jit kernel of the file, no starred arguments, a `grid=` keyword."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "warmup" and isinstance(call.func.value, ast.Name)):
            return False
        b = self.scopes.single(call.func.value)
        fn = b.node if b is not None and b.kind == "def" else None
        if not (isinstance(fn, ast.FunctionDef) and id(fn) in self.kernels and self.parent.get(id(fn)) is self.tree
                and len(fn.decorator_list) == 1 and self._decorator_name(fn.decorator_list[0]) == "triton.jit"):
            return False
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords) or (
                "grid" not in {k.arg for k in call.keywords}):
            return False
        assign = self.parent.get(id(call))
        target = sole_target(assign)
        if not (isinstance(assign, ast.Assign) and assign.value is call and isinstance(target, ast.Name)):
            return False
        # a function's own local (not a class body's attribute, not a global or nonlocal), bound
        # by this line only
        scope = self.scopes.of_node.get(id(target))
        return scope is not None and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            target.id not in scope.globals) and [b.node for b in scope.names.get(target.id, ())] == [target]

    def warmed_binding(self, b: Binding) -> bool:
        """A local bound once (its scope's only binding of the name) by a `warm_call`."""
        assign = self.parent.get(id(b.node))
        return b.kind == "local" and isinstance(assign, ast.Assign) and sole_target(assign) is b.node and (
            self.warm_call(assign.value))

    def warmed_read(self, chain: list[ast.Attribute]) -> bool:
        """`NAME._init_handles()` as a statement, or a read of one of WARMED_READS (not called,
        not written)."""
        attrs = tuple(a.attr for a in chain)
        outer = chain[-1]
        up = self.parent.get(id(outer))
        if attrs == ("_init_handles",):
            return isinstance(up, ast.Call) and up.func is outer and not (up.args or up.keywords) and (
                isinstance(self.parent.get(id(up)), ast.Expr))
        return attrs in WARMED_READS and all(isinstance(a.ctx, ast.Load) for a in chain) and not (
            isinstance(up, ast.Call) and up.func is outer)

    def warmed_use(self, node: ast.Name, parent: ast.AST | None) -> bool:
        """A mention of a warmed name: the root of an attribute read (`warmed_read` judges it) or
        a launch `NAME[grid](...)` as a statement, in the function that bound it."""
        if self.scopes.enclosing_function(node) is not self._binding_scope(node):
            return False
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return True
        call = self.parent.get(id(parent))
        return isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load) and (
            isinstance(call, ast.Call) and call.func is parent and isinstance(self.parent.get(id(call)), ast.Expr))

    def _binding_scope(self, node: ast.Name):
        scope, _ = self.scopes.lookup(node)
        return scope
