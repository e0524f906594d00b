"""What an atomic of a `branched` kernel (evaluator.dry_facts) returns in the dry launch model
(evaluator.dry_launch), where its old value is what memory held.

An atomic's old value was the data's throughout (evaluator.dry_taint), on the problem's draw
too: `if tl.atomic_add(flag, 0) == 1:` choosing a capped store was rolled back (as if never
run) at both sizes, its store judged nowhere (red team s69c, ok at 1.0005). Yet a lane whose
atomic leaves memory as it was (add 0, or 0, max with the least value, a compare-and-swap that
fails or swaps in what was there, an exchange of the value held) reads exactly what a load
reads there, and on the GPU too, whatever order the programs run in, where no program of the
launch changed the element. So per lane, on the problem's draw (evaluator.dry_values): where
the element's old value is known (it had not been stored by the running launch yet) and the
operands are known (evaluator.dry_taint), the atomic's new value is computed; a lane whose new
value is bit for bit the old one, and no other lane of the same atomic changes its element, is
`unchanged`: its result is the old value, known, and the element is not marked changed
(dry_memory `Memory.unchanged`), so a later program reads it known too. Every other lane is a
write and its result the data's, as before: a last-block ticket's add of 1 or a spin lock's
swap of 0 for 1 still stops a `branched` launch, as it did since session 69.
"""
from __future__ import annotations

import numpy as np


def _bits(values: np.ndarray) -> np.ndarray:
    """The values' bits as unsigned integers of their size (bit for bit comparison)."""
    values = np.ascontiguousarray(values)
    return values.view(f"u{values.dtype.itemsize}") if values.dtype.itemsize in (1, 2, 4, 8) else values


def _new(op: str, old: np.ndarray, val: np.ndarray) -> np.ndarray | None:
    """The value the read-modify-write `op` leaves (None: an op not known here)."""
    val = np.broadcast_to(val, old.shape).astype(old.dtype, copy=False)
    unsigned = old.view(f"u{old.dtype.itemsize}") if old.dtype.kind == "i" else old
    with np.errstate(all="ignore"):
        if op in ("ADD", "FADD"):
            return old + val
        if op in ("AND", "OR", "XOR") and old.dtype.kind in "iub":
            return {"AND": np.bitwise_and, "OR": np.bitwise_or, "XOR": np.bitwise_xor}[op](old, val)
        if op == "XCHG":
            return val
        if op in ("MAX", "MIN"):
            return (np.maximum if op == "MAX" else np.minimum)(old, val)
        if op in ("UMAX", "UMIN") and old.dtype.kind in "iu":
            uval = val.view(unsigned.dtype)
            return (np.maximum if op == "UMAX" else np.minimum)(unsigned, uval).view(old.dtype)
    return None


def _alone(ptrs: np.ndarray, same: np.ndarray, on: np.ndarray) -> np.ndarray:
    """`same` but for lanes on an element another lane of this atomic changes."""
    changed = on & ~same
    if not changed.any():
        return same
    return same & ~np.isin(ptrs, ptrs[changed])


def rmw(op: str, ptrs: np.ndarray, old: np.ndarray, known: np.ndarray, val: np.ndarray, on: np.ndarray) -> np.ndarray:
    """Per lane of a read-modify-write `op` (its name: ADD, XCHG, ...): unchanged, its old
    value `old` known (`known`: of the element and of the operands) and its lane `on`."""
    new = _new(op, old, val)
    if new is None:
        return np.zeros(np.shape(old), dtype=bool)
    same = known & on & (_bits(new) == _bits(old))
    return _alone(np.asarray(ptrs), same, on)


def cas(ptrs: np.ndarray, old: np.ndarray, known: np.ndarray, cmp: np.ndarray, val: np.ndarray) -> np.ndarray:
    """Per lane of a compare-and-swap (every lane on): unchanged, as `rmw`: the compare fails or
    swaps in the same bits."""
    cmp = np.broadcast_to(cmp, old.shape).astype(old.dtype, copy=False)
    val = np.broadcast_to(val, old.shape).astype(old.dtype, copy=False)
    same = known & ((_bits(old) != _bits(cmp)) | (_bits(val) == _bits(old)))
    return _alone(np.asarray(ptrs), same, np.ones(np.shape(old), dtype=bool))
