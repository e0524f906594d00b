"""Conversions the CPU interpreter makes as the GPU does (installed by interpreter_guard).

float32 -> bfloat16 rounds to nearest even (the interpreter truncated), and float -> integer
saturates as PTX's cvt.rzi (numpy gave INT_MIN out of range).
"""
from __future__ import annotations

import numpy as np


def install(builder_type: type, interpreter) -> None:
    """Both conversions on the interpreter's builder."""
    bfloat16_rounded(builder_type, interpreter)
    saturating_float_to_int(builder_type, interpreter)


def bfloat16_rounded(builder_type: type, interpreter) -> None:
    """float32 -> bfloat16 casts (`.to(tl.bfloat16)`, a float32 value stored to a bfloat16
    pointer) rounded to nearest even, as the GPU's conversion is: the interpreter truncates
    them (and its explicit round-to-nearest mode carries into the exponent wrongly), which put
    an honest float32 sigmoid stored as bfloat16 at 2.5x the reference's own rounding error,
    at the edge of the bfloat16 precision contract (compare.half_tolerance; session 22). An
    explicit round-toward-zero cast is left to the interpreter."""
    import triton.language as tl

    cast, to_fp = builder_type.cast_impl, builder_type.create_fp_to_fp
    toward_zero = interpreter._ir.ROUNDING_MODE.RTZ

    def cast_impl(self, src, dst_type):
        if src.dtype.scalar == tl.float32 and dst_type.scalar == tl.bfloat16:
            return interpreter.TensorHandle(bfloat16_bits(src.data), dst_type.scalar)
        return cast(self, src, dst_type)

    def create_fp_to_fp(self, src, dst_type, rounding_mode):
        if src.dtype.scalar == tl.float32 and dst_type.scalar == tl.bfloat16 and rounding_mode != toward_zero:
            return cast_impl(self, src, dst_type)
        return to_fp(self, src, dst_type, rounding_mode)

    builder_type.cast_impl, builder_type.create_fp_to_fp = cast_impl, create_fp_to_fp


def saturating_float_to_int(builder_type: type, interpreter) -> None:
    """float -> integer casts as the GPU converts (PTX cvt.rzi: toward zero, clamped to the
    integer type's range, NaN to 0): numpy's astype gives INT_MIN for anything out of range,
    so `(x * 1e10).to(tl.int32) > 0` was False on the CPU and True on the GPU (red team s36
    gated a ReLU on it)."""
    import numpy as np

    cast = builder_type.cast_impl

    def cast_impl(self, src, dst_type):
        source, target = src.dtype.scalar, dst_type.scalar
        if not (source.is_floating() and target.is_int() and target.int_bitwidth > 1):
            return cast(self, src, dst_type)
        kind = np.dtype(interpreter._get_np_dtype(target))
        low, high = np.iinfo(kind).min, np.iinfo(kind).max
        with np.errstate(invalid="ignore"):
            whole = np.trunc(src.data.astype(np.float64))
            inside = (whole > low) & (whole < high)
            out = np.where(inside, whole, 0).astype(kind)
            out[whole <= low] = low
            out[whole >= high] = high
        return interpreter.TensorHandle(out, target)

    builder_type.cast_impl = cast_impl


def bfloat16_bits(values) -> np.ndarray:
    """float32 values as bfloat16 bit patterns (uint16), rounded to nearest even; a NaN stays
    a (quiet) NaN, and a value past bfloat16's largest rounds to infinity."""
    data = np.ascontiguousarray(values, dtype=np.float32)
    bits = data.view(np.uint32)
    rounded = ((bits + (np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1)))) >> 16).astype(np.uint16)
    return np.where(np.isnan(data), ((bits >> 16) | np.uint32(0x40)).astype(np.uint16), rounded)
