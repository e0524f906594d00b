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
too), one program wrote the byte (two programs, or two lanes of one write, race: the last writer
is the CPU's order, not the GPU's), and its atomics were one program's (a ticket's old values
follow the order programs run in). Every other byte it wrote is forgotten (dry_values.forget):
a launch that loaded noise and stored it over a known byte made it noise too. Left as it was: a
storage the model holds known (torch.zeros) that a run launch stored noise into.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import numpy as np


class _Writes:
    """Stands in for the interpreter's native module while a run launch runs: every store and
    atomic forwarded, and each lane's address inside `ranges` (the unset storages it was
    handed) kept with the program that wrote it."""

    def __init__(self, raw: Any, ranges: list) -> None:
        self._raw, self._ranges = raw, ranges
        self.writes: list = []  # (addresses: int64 array, itemsize, program)
        self.atomic_programs: set = set()

    def __getattr__(self, name: str):
        return getattr(self._raw, name)

    def _keep(self, ptrs, mask, itemsize: int) -> None:
        from triton.runtime import interpreter as ti

        ptrs = np.asarray(ptrs, dtype=np.uint64)
        on = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), ptrs.shape)
        at = ptrs[on].reshape(-1).astype(np.int64)
        inside = np.zeros(at.shape, dtype=bool)
        for base, n in self._ranges:
            inside |= (at >= base) & (at < base + n)
        if inside.any():
            self.writes.append((at[inside], itemsize, tuple(getattr(ti.interpreter_builder, "grid_idx", ()))))

    def store(self, ptrs, value, mask):
        out = self._raw.store(ptrs, value, mask)
        self._keep(ptrs, mask, np.asarray(value).dtype.itemsize)
        return out

    def atomic_rmw(self, op, ptrs, value, mask, sem):
        out = self._raw.atomic_rmw(op, ptrs, value, mask, sem)
        self._atomic(ptrs, mask, np.asarray(value).dtype.itemsize)
        return out

    def atomic_cas(self, ptrs, cmp, value, sem):
        out = self._raw.atomic_cas(ptrs, cmp, value, sem)
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
    raw = ti._interpreter
    writes = ti._interpreter = _Writes(raw, ranges)
    try:
        yield
    finally:
        ti._interpreter = raw
    clean = clean and len(writes.atomic_programs) <= 1
    for k, storage in targets.items():
        _settle(k, storage, writes.writes, clean)


def _settle(key: int, storage: Any, writes: list, clean: bool) -> None:
    """Known (or, where not `clean`, forgotten) the bytes of `storage` the launch wrote: known
    where one program wrote them (its last write is what they hold, in program order on the GPU
    too), forgotten where two did or two lanes of one write did (a race)."""
    from evaluator import dry_values

    base, n = int(storage.data_ptr()), int(storage.nbytes())
    owner = np.full(n, -1, dtype=np.int64)  # -1 unwritten, -2 two writers, else the program
    programs: dict = {}
    for at, itemsize, program in writes:
        offs = at - base
        offs = offs[(offs >= 0) & (offs + itemsize <= n)]
        if not offs.size:
            continue
        mine = programs.setdefault(program, len(programs))
        spots = (offs[:, None] + np.arange(itemsize)[None, :]).reshape(-1)
        unique, counts = np.unique(spots, return_counts=True)
        was = owner[unique]
        owner[unique] = np.where((was == -1) | (was == mine), mine, -2)
        owner[unique[counts > 1]] = -2
    written = owner != -1
    if not written.any():
        return
    known = (owner >= 0) & clean
    dry_values.forget(key, written & ~known)
    dry_values.learn(key, storage, known)
