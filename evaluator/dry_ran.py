"""What a launch the dry launch model's real forward runs (evaluator.dry_tells `Recorded`: one
whose stores a tell read back, or whose stores a steered launch loads, `feeds`) stored into a
storage the model holds unset (evaluator.dry_values `_UNSET`: torch.empty's, noise here and
whatever the GPU's allocator left there).

Until session 70 such a storage stayed unset whatever a run launch stored into it: a flag
torch.empty made that a one-program launch set to 1 was the data's in the steered launch that
tested it, which was rolled back (as if never run) at both sizes, and its capped store judged
nowhere (red team s69c, ok at 1.0011). Now the bytes a run launch stored are known from then on
(dry_values.learn) where the GPU's launch stores the same: the launch loaded nothing unset or
launched (its loaded parameters' storages: what it stored is a function of values the GPU holds
too), one program wrote the byte, or every store to it wrote the same bits (two programs, or two
lanes of one write, storing two values race: the last writer is the CPU's order, not the
GPU's), and its atomics were one program's (a ticket's old values follow the order programs run
in). Every other byte it wrote is forgotten (dry_values.forget):
a launch that loaded noise and stored it over a known byte made it noise too. Left as it was: a
storage the model holds known (torch.zeros) that a run launch stored noise into.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import numpy as np


class _Writes:
    """The interpreter's native module's store and atomics (or the guard's stand-in's:
    evaluator.interpreter_guard `_Guarded`, patched on the object itself, so that what reads
    `interpreter._interpreter` still finds the guard) while a run launch runs: each forwarded,
    and each lane's address inside `ranges` (the unset storages it was handed) kept with the
    program that wrote it."""

    def __init__(self, target: Any, ranges: list) -> None:
        self._target, self._ranges = target, ranges
        self._plain = {name: getattr(target, name) for name in ("store", "atomic_rmw", "atomic_cas")}
        self._own = {name: name in getattr(target, "__dict__", {}) for name in self._plain}
        self.writes: list = []  # (addresses: int64 array, itemsize, program, bytes or None)
        self.atomic_programs: set = set()

    def __enter__(self) -> _Writes:
        for name in self._plain:
            setattr(self._target, name, getattr(self, name))
        return self

    def __exit__(self, *exc) -> None:
        for name, plain in self._plain.items():
            if self._own[name] or not hasattr(type(self._target), name):
                setattr(self._target, name, plain)
            else:
                delattr(self._target, name)

    def _keep(self, ptrs, mask, itemsize: int, value=None) -> None:
        """Keep the lanes' addresses inside `ranges`, with the bytes each stored (`value`; None
        for an atomic: what it left follows the order programs run in)."""
        from triton.runtime import interpreter as ti

        ptrs = np.asarray(ptrs, dtype=np.uint64)
        on = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), ptrs.shape)
        at = ptrs[on].reshape(-1).astype(np.int64)
        inside = np.zeros(at.shape, dtype=bool)
        for base, n in self._ranges:
            inside |= (at >= base) & (at < base + n)
        if not inside.any():
            return
        data = None
        if value is not None:
            value = np.ascontiguousarray(np.broadcast_to(np.asarray(value), ptrs.shape)[on].reshape(-1))
            data = value.view(np.uint8).reshape(-1, itemsize)[inside]
        self.writes.append((at[inside], itemsize, tuple(getattr(ti.interpreter_builder, "grid_idx", ())), data))

    def store(self, ptrs, value, mask):
        out = self._plain["store"](ptrs, value, mask)
        self._keep(ptrs, mask, np.asarray(value).dtype.itemsize, value)
        return out

    def atomic_rmw(self, op, ptrs, value, mask, sem):
        out = self._plain["atomic_rmw"](op, ptrs, value, mask, sem)
        self._atomic(ptrs, mask, np.asarray(value).dtype.itemsize)
        return out

    def atomic_cas(self, ptrs, cmp, value, sem):
        out = self._plain["atomic_cas"](ptrs, cmp, value, sem)
        self._atomic(ptrs, None, np.asarray(value).dtype.itemsize)
        return out

    def _atomic(self, ptrs, mask, itemsize: int) -> None:
        from triton.runtime import interpreter as ti

        self.atomic_programs.add(tuple(getattr(ti.interpreter_builder, "grid_idx", ())))
        self._keep(ptrs, mask, itemsize)


@contextmanager
def recording(loaded: list, stored: list, key, launched: dict):
    """Around a launch the real forward runs: `loaded` and `stored`, the tensors handed to the
    parameters its loads and its stores reach (evaluator.dry_tells `_handed`); `launched`, the
    storages launches not run may have stored into."""
    import torch
    from triton.runtime import interpreter as ti

    from evaluator import dry_values

    with torch._C.DisableTorchFunction():
        targets = {key(t): t.untyped_storage() for t in stored if key(t) in dry_values._UNSET}
        ranges = [(int(s.data_ptr()), int(s.nbytes())) for s in targets.values()]
    if not targets:
        yield
        return
    clean = not any(key(t) in dry_values._UNSET or key(t) in launched for t in loaded)
    with _Writes(ti._interpreter, ranges) as writes:
        yield
    clean = clean and len(writes.atomic_programs) <= 1
    for k, storage in targets.items():
        _settle(k, storage, writes.writes, clean)


def _settle(key: int, storage: Any, writes: list, clean: bool) -> None:
    """Known (or, where not `clean`, forgotten) the bytes of `storage` the launch wrote: known
    where one program wrote them (its last write is what they hold, in program order on the GPU
    too) or every write wrote the same bits; forgotten where two programs wrote two values, or
    two lanes of one write did (a race), or an atomic of two programs did."""
    from evaluator import dry_values

    base, n = int(storage.data_ptr()), int(storage.nbytes())
    owner = np.full(n, -1, dtype=np.int64)  # -1 unwritten, -2 two programs, else the program
    first = np.zeros(n, dtype=np.uint8)  # the bits first written
    agree = np.ones(n, dtype=bool)  # every write wrote `first`
    programs: dict = {}
    for at, itemsize, program, data in writes:
        offs = at - base
        inside = (offs >= 0) & (offs + itemsize <= n)
        if not inside.any():
            continue
        mine = programs.setdefault(program, len(programs))
        spots = (offs[inside][:, None] + np.arange(itemsize)[None, :]).reshape(-1)
        got = None if data is None else data[inside].reshape(-1)
        order = np.argsort(spots, kind="stable")
        spots = spots[order]
        got = None if got is None else got[order]
        new = np.ones(spots.size, dtype=bool)
        new[1:] = spots[1:] != spots[:-1]
        unique = spots[new]
        clash = unique[:0]
        if got is None:
            agree[unique] = False
        else:  # two lanes of this write on one byte with two values: a race
            split = np.flatnonzero(new)
            low, high = np.minimum.reduceat(got, split), np.maximum.reduceat(got, split)
            was = owner[unique] == -1
            first[unique[was]] = low[was]
            agree[unique] &= (low == high) & (first[unique] == low)
            clash = unique[low != high]
        was = owner[unique]
        owner[unique] = np.where((was == -1) | (was == mine), mine, -2)
        owner[clash] = -2
    written = owner != -1
    if not written.any():
        return
    known = ((owner >= 0) | agree) & written & clean
    dry_values.forget(key, written & ~known)
    dry_values.learn(key, storage, known)
