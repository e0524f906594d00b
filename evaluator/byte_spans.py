"""Per-byte maps of the storages torch handed out while the CPU work meter counts (evaluator.cpu_work):
which bytes of each something marked. The meter keeps two, each with its own rule for what marks a
byte: launch_bytes.Fresh (bytes something wrote: a load of the rest reads garbage) and
candidate_made.Made (bytes the candidate's own launches or finishing ops made). One type serves both
so that a span's bookkeeping (a new storage over a freed one, a view's strided bytes, a launch's
element addresses) is written once and reads the same in both.

A span is one storage's bytes from its first one, a bool per byte, kept under the storage's first
address. A storage freed keeps its span until a storage allocated over it forgets it (`allocated`):
memory handed out again is not what was there before. The GPU's profiled runs interpret no launch
and keep no map (cpu_work._Unmapped).
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import torch


class ByteSpans:
    """Spans of storages (start -> (end, a bool per byte)), the marked bytes True."""

    def __init__(self) -> None:
        self.spans: dict[int, tuple[int, np.ndarray]] = {}

    def allocated(self, t: torch.Tensor) -> None:
        """A new storage (torch.empty & co.): every span it lands on is forgotten; its own starts
        unmarked."""
        storage = t.untyped_storage()
        lo, n = storage.data_ptr(), storage.nbytes()
        self.forget(lo, lo + max(n, 1))
        if n:
            self.add(lo, n)

    def add(self, start: int, nbytes: int) -> None:
        """An unmarked span of `nbytes` from `start` (any span there replaced)."""
        self.spans[start] = (start + nbytes, np.zeros(nbytes, dtype=bool))

    def forget(self, lo: int, hi: int, keep: int | None = None) -> None:
        """Drop every span overlapping [lo, hi), but the one starting at `keep`."""
        for start in [s for s, (end, _) in self.spans.items() if s < hi and lo < end and s != keep]:
            del self.spans[start]

    def mark_view(self, t: torch.Tensor, value: bool = True) -> None:
        """Set the bytes `t`'s strided span covers in the span of its storage (none: nothing):
        `buf[:1].fill_(0)` marks one element, not the buffer."""
        start = t.untyped_storage().data_ptr()
        if start in self.spans:
            bits = self.spans[start][1]
            first = t.data_ptr() - start
            bits[max(first, 0):min(first + span_bytes(t), bits.size)] = value

    def covers(self, t: torch.Tensor) -> bool:
        """Every byte of `t`'s strided span is marked in the span of its storage."""
        if t.numel() == 0:
            return False
        storage = t.untyped_storage()
        span = self.spans.get(storage.data_ptr())
        if span is None:
            return False
        first, size = t.data_ptr() - storage.data_ptr(), span_bytes(t)
        bits = span[1][max(first, 0):first + size]
        return first >= 0 and bits.size == size and bool(bits.all())

    def _inside(self, addrs: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(which addresses, their offsets, the bits) of each span holding some of `addrs`; spans
        past the addresses' range are skipped without a pass over them."""
        if not self.spans or not addrs.size:
            return
        least, most = int(addrs.min()), int(addrs.max())
        for start, (end, bits) in self.spans.items():
            if start > most or end <= least:
                continue
            inside = (addrs >= np.uint64(start)) & (addrs < np.uint64(end))
            if inside.any():
                yield inside, (addrs[inside] - np.uint64(start)).astype(np.int64), bits

    def mark(self, addrs: np.ndarray, itemsize: int) -> None:
        """Mark the `itemsize` bytes of each element at `addrs` (a launch's stores)."""
        for _, offsets, bits in self._inside(addrs):
            for k in range(itemsize):
                bits[np.minimum(offsets + k, bits.size - 1)] = True

    def marked(self, addrs: np.ndarray) -> np.ndarray:
        """`addrs` less those at an unmarked byte of a span (addresses outside every span stay)."""
        keep = None
        for inside, offsets, bits in self._inside(addrs):
            if keep is None:
                keep = np.ones(addrs.size, dtype=bool)
            keep[np.flatnonzero(inside)[~bits[offsets]]] = False
        return addrs if keep is None else addrs[keep]


def span_bytes(t: torch.Tensor) -> int:
    """Bytes from a tensor's first element to just past its last (0 when empty); a layout without
    strides (sparse, nested) counts its elements."""
    if t.numel() == 0:
        return 0
    try:
        span = 1 + sum((s - 1) * abs(st) for s, st in zip(t.shape, t.stride()) if s > 1)
    except (RuntimeError, NotImplementedError):
        span = t.numel()
    return span * t.element_size()
