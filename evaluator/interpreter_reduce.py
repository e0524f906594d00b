"""tl.reduce with a combine function of the candidate's own, in a tree under the interpreter.

Triton's interpreter reduces such a call element by element: one Python call of the combine
kernel per element of the axis, each on one-element tensors. An honest layer norm whose
row statistics come from a Welford merge (`tl.reduce((x, m2, w), 0, welford_combine)`,
as Inductor and several public kernels write it) took 13.5 s per forward of a 16 x 1500
problem, and its evaluation timed out on the CPU (honest round, session 23). Triton asks
a combine function to be associative, and the GPU combines in a tree; here adjacent pairs
along the axis are combined level by level (log2(n) calls on whole blocks, each pair in its
order, so a combine that is associative but not commutative gets the same answer), and the
axis, now of length one, goes through the interpreter's own reduce for its packing. Only a
straight-line combine function of the file's takes that path: on the GPU the combine runs
per element, so an `if a > b:` (or `x if c else y`, `and`/`or`/`not`, a loop, a call of a
helper that might hold one) decides per element, where on a block the interpreter would
decide once for all (a tree `larger` returned the wrong maximum). Anything else, and a
combine that raises on blocks, runs element by element as before; Triton's own combine
functions (sum, max, argmax) keep their numpy paths.

An argmax or argmin with `tie_break_left=False` (and `tl.max`/`tl.min` with
`return_indices_tie_break_left=False`) answers, among the tied extreme values, an index drawn at
random per reduction (`secrets`): the GPU's combine keeps either operand of a tie, so the index
is the order of its shuffle tree (an H200 answered N-1 for all-equal tiles of 8 to 1024, and
for two maxima at 3 and N-2 answered 3 at N=8, N-2 at N=128), where Triton's interpreter always
answers the leftmost (np.nanargmax). A kernel steered on the interpreter's answer (red team s46:
`argmax(zeros, 0, tie_break_left=False) == 0` armed the honest path) now meets an index it
cannot predict. `tie_break_left=True` stays the leftmost, the documented rule; NaNs as the
interpreter has them.
"""
from __future__ import annotations

import ast
import inspect
import secrets
import textwrap

import numpy as np

# what a straight-line combine body holds: arithmetic, comparisons, tl.* calls, tuples
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)
_BRANCHING = (ast.If, ast.IfExp, ast.BoolOp, ast.While, ast.For, ast.With, ast.Try, ast.Match,
              ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Not,
              ast.NamedExpr, ast.Starred)
# calls with an effect beyond their value: run once per element on the GPU
_EFFECTS = frozenset({"store", "device_print", "device_assert", "static_print", "debug_barrier",
                      "inline_asm_elementwise"})
_SHAPES: dict = {}  # combine function -> straight_line's answer (one candidate per child)
_DRAW = secrets.SystemRandom()


def install(interpreter) -> None:
    """Replace ReduceOps.generic_reduce (idempotent)."""
    ops = interpreter.ReduceOps
    if getattr(ops.generic_reduce, "_krl_tree", False):
        return
    sequential = ops.__dict__["generic_reduce"]

    def generic_reduce(self, input):
        if not straight_line(getattr(self.combine_fn, "source", None)):
            return sequential(self, input)
        try:
            reduced = _tree(self, input)
        except Exception:  # noqa: BLE001  (deliberate: a combine that cannot take blocks)
            return sequential(self, input)
        return sequential(self, reduced)

    generic_reduce._krl_tree = True  # type: ignore[attr-defined]
    ops.generic_reduce = generic_reduce
    _any_tie(interpreter)
    for kind in (interpreter.ReduceOps, interpreter.ScanOps):
        kind.apply = _meeting(kind.apply)


def _any_tie(interpreter) -> None:
    """ReduceOps.apply_impl with a tie_break_fast argmax/argmin answering any tied index."""
    ops = interpreter.ReduceOps
    if getattr(ops.apply_impl, "_krl_ties", False):
        return
    leftmost = ops.__dict__["apply_impl"]
    std = interpreter.tl.standard
    fast = ((std._argmax_combine_tie_break_fast, np.nanmax, np.nanargmax),
            (std._argmin_combine_tie_break_fast, np.nanmin, np.nanargmin))

    def apply_impl(self, input):
        for combine, extreme, first in fast:
            if self.combine_fn is combine:
                def index(data, axis, keepdims, extreme=extreme, first=first):
                    return any_tied(data, axis, keepdims, extreme, first)

                return self.min_max(input[0], val_reduce_op=extreme, idx_reduce_op=index)
        return leftmost(self, input)

    apply_impl._krl_ties = True  # type: ignore[attr-defined]
    ops.apply_impl = apply_impl


def any_tied(data: np.ndarray, axis, keepdims: bool, extreme, first) -> np.ndarray:
    """The index along `axis` of an element equal to the extreme (`extreme`: np.nanmax or
    np.nanmin), drawn uniformly among the tied ones, independently per reduced slice. `first`
    (np.nanargmax/np.nanargmin) runs first, so an all-NaN slice raises as the interpreter's."""
    leftmost = first(data, axis=axis, keepdims=keepdims)
    top = extreme(data, axis=axis, keepdims=True)
    with np.errstate(invalid="ignore"):
        tied = data == top  # a NaN ties with nothing
    keys = np.random.default_rng(_DRAW.getrandbits(64)).random(np.shape(data))
    keys[~tied] = -1.0
    return np.argmax(keys, axis=axis, keepdims=keepdims).astype(np.asarray(leftmost).dtype)


def _meeting(apply):
    """A reduction or scan that Triton compiles across warps is a barrier of the program's
    lanes (`interpreter_spin.reduction_barrier`): counted as tl.debug_barrier() is."""
    from evaluator import interpreter_lanes, interpreter_races, interpreter_spin

    def apply_then_meet(self, input):
        out = apply(self, input)
        if interpreter_races.watching() and interpreter_spin.reduction_barrier():
            interpreter_lanes.barrier()
        return out

    return apply_then_meet


def straight_line(fn) -> bool:
    """Whether `fn` (a candidate's combine function, None for Triton's own) is one block of
    assignments ending in its only return, with no branching and no call but of an
    attribute (tl.where, tl.math.exp): the same on a block as per element."""
    if fn is None:
        return False
    if fn not in _SHAPES:
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        except (OSError, TypeError, SyntaxError):  # deliberate: no source, no tree
            _SHAPES[fn] = False
            return False
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.FunctionDef) else []
        body = body[1:] if body and _docstring(body[0]) else body
        _SHAPES[fn] = bool(body) and isinstance(body[-1], ast.Return) and all(
            isinstance(s, _STATEMENTS) and (s is body[-1] or not isinstance(s, ast.Return)) for s in body
        ) and not any(_branching(n) for s in body for n in ast.walk(s))
    return _SHAPES[fn]


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _branching(node: ast.AST) -> bool:
    """Control flow, or a call that is not a pure tl.* one."""
    if isinstance(node, _BRANCHING):
        return True
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return not isinstance(func, ast.Attribute) or func.attr in _EFFECTS or func.attr.startswith("atomic")


def _tree(op, input: tuple) -> tuple:
    """The inputs with their reduced axis combined down to length one (flattened first where
    the reduce has no axis, as the interpreter does)."""
    tensors, axis = op.unravel(input, op.axis)
    data = [t.handle.data for t in tensors]
    while data[0].shape[axis] > 1:
        n = data[0].shape[axis]
        pairs = (n // 2) * 2
        left = [op.to_tensor(np.take(d, range(0, pairs, 2), axis=axis), t.dtype) for d, t in zip(data, tensors)]
        right = [op.to_tensor(np.take(d, range(1, pairs, 2), axis=axis), t.dtype) for d, t in zip(data, tensors)]
        out = op.combine_fn.fn(*left, *right)
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(data):
            raise ValueError("the combine function returned another number of values")
        merged = [np.broadcast_to(_values(o), l.handle.data.shape).astype(d.dtype)
                  for o, l, d in zip(out, left, data)]
        if n > pairs:  # the odd last element, combined at the next level
            merged = [np.concatenate([m, np.take(d, [n - 1], axis=axis)], axis=axis) for m, d in zip(merged, data)]
        data = merged
    return tuple(op.to_tensor(d, t.dtype) for d, t in zip(data, tensors))


def _values(value) -> np.ndarray:
    """A combine result's values: a tensor's array, or a Python constant it returned."""
    handle = getattr(value, "handle", None)
    return np.asarray(handle.data if handle is not None else value)
