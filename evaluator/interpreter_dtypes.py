"""The interpreter's Triton-to-NumPy dtype lookup, answered from a table it filled once.

`triton.runtime.interpreter._get_np_dtype` builds its dict of twenty dtypes on every call, and
hashes and compares Triton dtypes (a `_unwrap_if_constexpr` per comparison) to look one up; the
interpreter calls it for every splat, and evaluator.dry_launch for every load of the dry launch
model: 7% of the model's time on a data-steered ReLU's 32768 programs (red team s66c, CPU,
Triton interpreter). The answer depends only on the dtype's name (the dict's own key: a Triton
dtype hashes and compares by name), so a scalar dtype, or a block of one, is answered from the
names already seen; anything else (a pointer, a block of pointers, a subclass) asks the original,
which raises as before for a dtype it does not know.

Measured with both (session 67, scripts/dev/profile_dry.py, --off for Triton's own; CPU, Triton
interpreter, a loaded box, two runs each, the same storages): the dry model of red team s66c's
ReLU at 1024 x 8192 (8192 programs) 14.9 -> 12.4 CPU s, of the built-in layer norm's solution at
512 x 8192 14.1 -> 12.3 CPU s.
"""
from __future__ import annotations


def install(interpreter) -> None:
    """Replace the module's `_get_np_dtype` (idempotent): every caller reads the module global."""
    original = interpreter._get_np_dtype
    if getattr(original, "by_name", None) is not None:
        return
    import triton.language as tl

    plain, block = tl.dtype, tl.block_type
    by_name: dict = {}  # scalar dtype name -> the NumPy dtype the original gave it

    def cached(tt_dtype):
        kind = type(tt_dtype)
        scalar = tt_dtype if kind is plain else tt_dtype.element_ty if kind is block else None
        if type(scalar) is not plain:
            return original(tt_dtype)
        got = by_name.get(scalar.name)
        if got is None:
            got = by_name[scalar.name] = original(scalar)
        return got

    cached.by_name, cached.original = by_name, original
    interpreter._get_np_dtype = cached


def block_types_remembered() -> None:
    """`tl.block_type(element, shape)` with its shape checked, counted and named once per shape
    and element name (idempotent). Triton's front end makes a block type for nearly every value
    an interpreted op returns (a broadcast, a splat, a binary op's type check): unwrapping,
    validating and formatting the same shape again each time, 15% of the dry model's time on
    red team s66c's ReLU. Only a shape of plain ints beside a plain or pointer element (whose
    text is its name) takes the remembered path: the count and name the original gave the first
    such one, and a fresh shape tuple of the same ints, typed as the original types it (nothing
    mutable shared between two block types); anything else, and any shape the original refuses,
    runs the original."""
    import triton.language.core as core

    block, init = core.block_type, core.block_type.__init__
    if getattr(init, "made", None) is not None:
        return
    elements, shaped, typed, const = (core.dtype, core.pointer_type), core.tuple, core.tuple_type, core.constexpr_type
    made: dict = {}  # (shape, element name, element class) -> (numel, name) the original set

    def remembered(self, element_ty, shape):
        # the original asserts a list or a Triton tuple (never Python's tuple)
        if type(element_ty) in elements and (type(shape) is list or type(shape) is shaped):
            dims = tuple(shape) if type(shape) is list else tuple(shape.values)
            if all(type(d) is int for d in dims):
                key = (dims, element_ty.name, type(element_ty))
                known = made.get(key)
                if known is None:
                    init(self, element_ty, shape)
                    made[key] = (self.numel, self.name)
                    return
                self.element_ty = element_ty
                self.shape = shaped(list(dims), typed([const(d) for d in dims]))
                self.numel, self.name = known
                return
        init(self, element_ty, shape)

    remembered.made, remembered.original = made, init
    block.__init__ = remembered
