"""Whether a straight-line combine function is elementwise: the same on a block as per element.

`interpreter_reduce` calls a file's straight-line tl.reduce / tl.associative_scan combine on
whole blocks (a few calls per level of the GPU's tree instead of one per element: an honest
cumsum through its own `a + b` took 11 s a forward element by element, 0.54 s on blocks). On
the GPU the combine runs per element, on scalars: anything in its body that sees the block
answers another value there. The GPU front end refuses the cross-lane calls (tl.sum, tl.max,
tl.cumsum, tl.flip, tl.reshape, tl.sort, tl.reduce, tl.broadcast_to, tl.join, `a[None]`:
"'tt.scan' op type mismatch on combine operation", sm_90 front end, session 58k) before the
interpreter runs them (`evaluator.device_compile`), but it accepts reads of the operand's
shape: `a.numel`, `a.shape`, `a.type.is_block()` are 1, [] and False per element and the
block's own on a block. A combine `a + b * a.type.is_block()` summed on the CPU's blocks and
kept `a` on the GPU (`hacks/s58k_combine_reads_block_type_cumsum`: ok on the CPU, wrong on
the GPU). An allowlist, not a list of refusals: a combine runs on blocks only when every
attribute it reads is a dtype read off an operand (`a.dtype.is_floating()`), `.to(...)`,
a dtype constant of Triton's (`tl.float32`), a member of an enum Triton's language exports
(`tl.PropagateNan.ALL`), or an elementwise function of Triton's language or libdevice
(`ELEMENTWISE`), and it indexes nothing; anything else runs per element.
"""
from __future__ import annotations

import ast
import enum
import types

# Triton's elementwise functions (tl.*, tl.math.*): per element on a block, the same values
ELEMENTWISE = frozenset({
    "where", "maximum", "minimum", "clamp", "abs", "ceil", "floor", "cos", "sin", "erf", "exp", "exp2",
    "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "div_rn", "fdiv", "fma", "umulhi", "sigmoid", "cdiv",
    "cast", "zeros_like",
})
# what may be read off an operand (or any expression that is not a module)
_OPERAND = frozenset({"dtype", "to"})


def elementwise(function: ast.FunctionDef, names: dict, typed: frozenset | set = frozenset()) -> bool:
    """Whether `function`'s body (a straight-line combine, its globals `names`) reads nothing
    of its operands but values and dtypes, and calls no Triton function but elementwise ones,
    outside the nodes `typed` (the tests of `if`s on dtypes alone, `interpreter_reduce._typed_if`)."""
    local = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    local |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    nodes = [n for s in function.body for n in ast.walk(s) if id(n) not in typed]
    inner = {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
    return not any(isinstance(n, ast.Subscript) for n in nodes) and all(
        _allowed(n, names, local) for n in nodes if isinstance(n, ast.Attribute) and id(n) not in inner)


def _allowed(node: ast.Attribute, names: dict, local: set) -> bool:
    """One outermost attribute chain (`tl.math.exp`, `a.dtype.is_floating`)."""
    chain = []
    root: ast.AST = node
    while isinstance(root, ast.Attribute):
        chain.insert(0, root.attr)
        root = root.value
    if not isinstance(root, ast.Name) or root.id in local or root.id not in names:
        return chain[0] == "dtype" or chain == ["to"]
    value = names[root.id]
    for attr in chain[:-1]:
        value = getattr(value, attr, None) if isinstance(value, types.ModuleType) else None
    if isinstance(value, type) and issubclass(value, enum.Enum) and len(chain) >= 2:
        return _triton_enum(names[root.id], chain)
    return isinstance(value, types.ModuleType) and _triton_value(value, chain[-1])


def _triton_enum(root: object, chain: list) -> bool:
    """`tl.PropagateNan.ALL`: a member of an enum the Triton language module exports, one
    constant per element and on a block (honest round s60d: a NaN-propagating max combine,
    `tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)`, ran element by element)."""
    import sys

    *path, cls_name, member = chain
    module = root
    for attr in path:
        module = getattr(module, attr, None)
    title = getattr(module, "__name__", "")
    if not isinstance(module, types.ModuleType) or not title.startswith("triton.language") \
            or sys.modules.get(title) is not module:
        return False
    cls = getattr(module, cls_name, None)
    return isinstance(cls, type) and issubclass(cls, enum.Enum) and isinstance(getattr(cls, member, None), cls)


def _triton_value(module: types.ModuleType, name: str) -> bool:
    """`module.name` is a dtype constant of Triton's, or an elementwise function of its language
    or libdevice. The module is known by its name and identity in sys.modules, and the function
    by its name: the interpreter replaces the language's functions with its own
    (`_patch_lang`), so theirs is no module to go by."""
    import sys

    import triton.language as tl

    title = getattr(module, "__name__", "")
    if not title.startswith("triton.language") or sys.modules.get(title) is not module:
        return False
    value = getattr(module, name, None)
    return isinstance(value, tl.dtype) or callable(value) and ("libdevice" in title or name in ELEMENTWISE)
