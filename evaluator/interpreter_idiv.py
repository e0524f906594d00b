"""Integer division and remainder by zero under the CPU interpreter, as the GPU's would be.

Triton's interpreter divides integers with numpy, whose answer for a zero divisor is 0 for both
the quotient and the remainder (a RuntimeWarning, silenced in the child). PTX leaves div and rem
by zero unspecified, and NVIDIA's integer division sequences answer otherwise, so a kernel that
divides by a runtime zero and stores only where `q == 0` held ran its work on the CPU alone (red
team s65e, session 65: a ReLU gated so was ok at 1.0047 on `krl check --device cpu`).

MEASURED holds, per integer type, what a lane with a zero divisor gets on the GPU, as data
(H100, sm_90, Triton 3.6; session 67, scripts/device/probe_idiv_zero.py, a scalar argument divisor
and a loaded one alike): the remainder is the lane's own dividend, and the quotient every bit set
(-1 signed, 0xFFFFFFFF unsigned) for 32-bit types; for int64, LLVM's NVPTX lowering divides in 32
unsigned bits where both operands fit there, so a dividend in [0, 2**32) gets 0xFFFFFFFF and any
other -1 (`ones32`; 7 // 0 == 4294967295 and -7 // 0 == -1 on the H100). Types not probed (8 and
16 bits, uint64) keep UNMEASURED: each candidate child draws one column of plausible answers
(`zero`, or `random`, one value per child from its secret in the type's range), so a kernel that
bets on one answer is wrong in the children that drew another, whichever the GPU's is. A lane
whose divisor is not zero keeps numpy's (Triton's C-style truncation). Installed by
evaluator.interpreter_guard.
"""
from __future__ import annotations

import numpy as np

from evaluator import keyed_draw

# what a zero divisor's lane gets on the GPU: (quotient, remainder) per numpy type name
MEASURED = {"int32": ("ones", "dividend"), "uint32": ("ones", "dividend"), "int64": ("ones32", "dividend")}
# other types, unmeasured: one column drawn per child
UNMEASURED = (("ones", "dividend"), ("zero", "zero"), ("random", "random"))


def rule(dtype: np.dtype) -> tuple[str, str]:
    """This child's (quotient, remainder) rule for a zero divisor of `dtype`."""
    return MEASURED.get(np.dtype(dtype).name) or keyed_draw.pick("integer division by zero", UNMEASURED)


def _filled(kind: str, dividend: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if kind == "dividend":
        return dividend.astype(dtype, copy=False)
    if kind == "random":
        info = np.iinfo(dtype)
        span = int(info.max) - int(info.min) + 1
        value = int(info.min) + keyed_draw.seed("integer division by zero", "value") % span
        return np.full(np.shape(dividend), value, dtype=dtype)
    ones = np.full(np.shape(dividend), np.iinfo(dtype).max if dtype.kind == "u" else -1, dtype=dtype)
    if kind == "ones32":  # the 32-bit unsigned division where the dividend fits there
        narrow = (dividend >= 0) & (dividend <= 0xFFFFFFFF)
        return np.where(narrow, np.asarray(0xFFFFFFFF, dtype=dtype), ones)
    if kind == "ones":
        return ones
    return np.zeros(np.shape(dividend), dtype=dtype)


def _by_zero(op, which: int):
    """`op(self, lhs, rhs)` with each zero divisor's lane replaced by this child's rule (`which`:
    0 the quotient, 1 the remainder); the other lanes are numpy's, computed over a divisor of 1
    where it was zero (no warning, no value of numpy's kept)."""

    def patched(self, lhs, rhs):
        b = np.asarray(rhs.data)
        if b.dtype.kind not in "iu" or not np.any(b == 0):
            return op(self, lhs, rhs)
        zero = b == 0
        safe = type(rhs)(np.where(zero, np.ones_like(b), b), rhs.dtype)
        out = op(self, lhs, safe)
        data = np.asarray(out.data)
        a = np.broadcast_to(np.asarray(lhs.data), data.shape)
        fill = _filled(rule(data.dtype)[which], a, data.dtype)
        return type(out)(np.where(np.broadcast_to(zero, data.shape), fill, data), out.dtype)

    return patched


def install(builder_type: type) -> None:
    """Patch the interpreter builder's integer division and remainder (create_sdiv and
    create_udiv go through create_idiv)."""
    builder_type.create_idiv = _by_zero(builder_type.create_idiv, 0)
    for name in ("create_srem", "create_urem"):
        setattr(builder_type, name, _by_zero(getattr(builder_type, name), 1))
