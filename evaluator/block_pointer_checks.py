"""Triton 3.6's compile-time checks of block pointers, for the CPU's rewrite of them
(evaluator.block_pointers): the plain loads and stores it writes out would not make them, so
it calls these check functions around the values 3.6 checks and appends their source after
the file's last line: a stored value of another element type or a shape that only broadcasts,
int64 offsets, float shapes. The rules are read from semantic.py of the TritonSemantic era (3.4
to 3.6: make_block_ptr, advance, _convert_elem_to_ir_value, _load_block_pointer,
_store_block_pointer); the 3.6 tag itself could not be fetched in session 51c, the stored copy
of triton-lang/triton was read."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evaluator import block_pointer_calls as calls
from evaluator.block_pointer_calls import FUNCTIONS
from evaluator.block_pointer_calls import dotted as _dotted

if TYPE_CHECKING:
    from evaluator.block_pointers import Block

# Triton 3.6's compile-time checks of block pointers (semantic.py's make_block_ptr, advance,
# _convert_elem_to_ir_value, _load_block_pointer, _store_block_pointer), which the plain loads
# and stores written out would not make: the rewrite wraps the values they check in calls of
# @triton.jit functions appended after the file's last line (its lines keep their numbers),
# each a `tl.static_assert` of 3.6's rule that returns what it was given. The GPU compiler's
# front end, run on the CPU before every interpreted launch (evaluator.device_compile), judges
# them at the launch's own specialization, so a file 3.6 cannot build is a compile_error here too.
# Offsets (make_block_ptr's and advance's) are i32 in 3.6's ops (tt.make_tensor_ptr, tt.advance):
# a tensor offset passes through uncast, so only a 32-bit integer builds (3.6 asserts on int64;
# int8/int16/uint64 fail the op's verifier); shapes and strides are any integer, cast to i64; a
# constant is an int in the 32-bit (offsets) or 64-bit range, a bool (an i1) neither.
_INDEX_MSG = ("Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use "
              "regular indexing for 64 bit support")


@dataclass
class Checks:
    """The appended check functions' names (`stem`) and what the rewrite has called of them."""

    stem: str
    decorator: str
    used: set = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.used = set()

    def _call(self, kind: str, *args: str) -> str:
        self.used.add(kind)
        return f"{self.stem}_{kind}({', '.join(args)})"

    def index(self, text: str, wide: bool) -> str:
        """A shape or stride (`wide`: any integer, 64-bit range) or an offset (32-bit)."""
        return self._call("index", f"({text})", str(wide))

    def base(self, text: str) -> str:
        """The base pointer: a scalar pointer; an int1 one is read as int8, as 3.6 does."""
        return self._call("base", f"({text})")

    def value(self, text: str, block: Block) -> str:
        """A stored value: the block's element type, a scalar or exactly the block's shape."""
        return self._call(f"store{block.rank}", f"({text})", block.base, *block.shape_text)

    def permutation(self, text: str, elements: list[str]) -> str:
        """`text` (a base or pointer) after 3.6's check that `elements` (an order, or a
        boundary_check naming every dimension) is a permutation of 0..rank-1."""
        return self._call(f"perm{len(elements)}", f"({text})", *elements)

    def no_int_nan(self, pointer: str) -> str:
        """A load padded with NaN: not of an integer block."""
        return self._call("nan", pointer)

    def source(self) -> str:
        tl = f"{self.stem}_tl"
        out = [f"\n\nimport triton.language as {tl}\n"] if self.used else []
        for kind in sorted(self.used):
            head = f"\n\n@{self.decorator}\ndef {self.stem}_{kind}"
            if kind == "index":
                out.append(f'''{head}(x, WIDE: {tl}.constexpr):
    if isinstance(x, {tl}.tensor):
        {tl}.static_assert(x.numel == 1, "Expected a scalar in shape/strides/offsets")
        {tl}.static_assert(x.dtype.is_int(), "Expected an integer scalar type in shape/strides/offsets")
        if WIDE:
            pass
        else:
            {tl}.static_assert(x.dtype.primitive_bitwidth == 32, "{_INDEX_MSG} (and an offset of fewer bits is no i32 either)")
    else:
        {tl}.static_assert({tl}.where(True, x, x).dtype.is_int(), "Unsupported element type in shape/strides/offsets")
        {tl}.static_assert({tl}.where(True, x, x).dtype != {tl}.int1, "a bool is an i1 constant, not the i64 shape/stride or i32 offset Triton 3.6's block pointer ops take")
        if WIDE:
            {tl}.static_assert(x >= -9223372036854775808, "Block pointers only support 64 bit `shape/strides`")
            {tl}.static_assert(x <= 9223372036854775807, "Block pointers only support 64 bit `shape/strides`")
        else:
            {tl}.static_assert(x >= -2147483648, "{_INDEX_MSG}")
            {tl}.static_assert(x <= 2147483647, "{_INDEX_MSG}")
    return x
''')
            elif kind == "base":
                out.append(f'''{head}(base):
    {tl}.static_assert(base.type.is_ptr(), "Expected `base` to be a pointer type (but not a block pointer type or others)")
    if base.dtype.element_ty == {tl}.int1:
        b = base.to({tl}.pointer_type({tl}.int8))
    else:
        b = base
    return b
''')
            elif kind == "nan":
                out.append(f'''{head}(p):
    {tl}.static_assert(p.dtype.element_ty.is_int() == False, "Padding option `nan` is not supported for integer block pointers")
    return p
''')
            elif kind.startswith("perm"):
                rank = int(kind[len("perm"):])
                dims = [f"O{i}" for i in range(rank)]
                rules = [" | ".join(f"({d} == {v})" for v in range(rank)) for d in dims]
                rules += [f"{a} != {b}" for i, a in enumerate(dims) for b in dims[i + 1:]]
                body = "".join(f'\n    {tl}.static_assert({r}, "Expected a permutation of (0, 1, ..., '
                               f'len(order)-1) in order, and each boundary_check dimension once")' for r in rules)
                out.append(f'''{head}(x, {", ".join(f"{d}: {tl}.constexpr" for d in dims)}):{body}
    return x
''')
            else:
                rank = int(kind[len("store"):])
                dims = [f"S{i}" for i in range(rank)]
                shape = "".join(f"\n        {tl}.static_assert(v.shape[{i}] == S{i}, \"Block shape and value shape mismatch "
                                "(Triton 3.6 broadcasts no block value to a block pointer's shape)\")"
                                for i in range(rank))
                out.append(f'''{head}(value, base, {", ".join(f"{d}: {tl}.constexpr" for d in dims)}):
    v = {tl}.where(True, value, value)  # 3.6's store takes a Python scalar as tl.to_tensor does
    if v.type.is_block():
        {tl}.static_assert(len(v.shape) == {rank}, "Block shape and value shape mismatch (Triton 3.6 broadcasts no block value to a block pointer's shape)"){shape}
    {tl}.static_assert(v.dtype == base.dtype.element_ty, "Block element type and value element type mismatch (Triton 3.6 casts no value stored through a block pointer)")
    return v
''')
        return "".join(out)


def constexpr_dims(fn: ast.AST, node: ast.expr, rank: int, constexprs: set[str]) -> list[str] | None:
    """An `order` or `boundary_check` written as a tuple of one entry per dimension, each an int
    or a `tl.constexpr` parameter of the kernel its body never rebinds (`constexprs`, as Triton
    reads annotations: calls.constexpr_parameters), at least one such a name
    (FlagGems' generated pointwise kernels: `order=(in0_stride_order0,)`,
    `boundary_check=(in0_stride_order0,)`): the entries' texts, which the launch must make a
    permutation of 0..rank-1 (Checks.permutation), so a boundary_check of it checks every
    dimension; else None (a literal is judged as one; anything else is refused)."""
    elts = node.elts if isinstance(node, (ast.Tuple, ast.List)) else []
    names = constexprs - calls.stored(fn)  # Triton's own constexprs (calls.constexpr_parameters)
    if len(elts) != rank or not any(isinstance(e, ast.Name) for e in elts) or not all(
            (isinstance(e, ast.Name) and e.id in names) or (isinstance(e, ast.Constant) and type(e.value) is int)
            for e in elts):
        return None
    return [ast.unparse(e) for e in elts]


def fresh_stem(taken: set[str]) -> str:
    stem, n = "_krl_bp_check", 0
    while any(t.startswith(stem) for t in taken):
        n += 1
        stem = f"_krl_bp_check{n}"
    return stem


def jit_decorator(tree: ast.Module) -> str:
    """The file's own spelling of `triton.jit` (a kernel's decorator), for the appended checks."""
    for fn in ast.walk(tree):
        for d in getattr(fn, "decorator_list", []) if isinstance(fn, FUNCTIONS) else []:
            if calls._jit(d):
                return _dotted(d.func if isinstance(d, ast.Call) else d) or "triton.jit"
    return "triton.jit"
