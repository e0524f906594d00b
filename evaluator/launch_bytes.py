"""What one interpreted launch touched, for the CPU work meter (evaluator.cpu_work): the
distinct addresses it loaded and stored (deduplicated in chunks), its tl.dot flops capped by
what it loaded, and which memory torch.empty & co. handed out that nothing has written yet
(loads of it are no work: garbage read to look busy)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from evaluator.byte_spans import ByteSpans

# Address lists of one launch are deduplicated once they hold this many entries.
_COMPACT_AT = 1 << 22


class _Addresses:
    """Start addresses one launch touched with one element size, deduplicated lazily."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.count = 0
        self.limit = _COMPACT_AT  # deduplicate when this many are held; doubles as needed

    def add(self, addrs: np.ndarray) -> None:
        self.chunks.append(addrs)
        self.count += addrs.size
        if self.count > self.limit:
            self.chunks = [_unique(np.concatenate(self.chunks))]
            self.count = self.chunks[0].size
            self.limit = max(self.limit, 2 * self.count)

    def distinct(self) -> int:
        return _unique(np.concatenate(self.chunks)).size if self.chunks else 0


def element_bytes(ptrs) -> int:
    """Bytes of one element a block of pointers points at (at least one: an int1 is a byte)."""
    return max(1, ptrs.get_element_ty().primitive_bitwidth // 8)


def _unique(addrs: np.ndarray) -> np.ndarray:
    """Distinct addresses; a bitmap over the span when dense (50x faster than np.unique)."""
    lo, hi = int(addrs.min()), int(addrs.max())
    if hi - lo > 8 * addrs.size + 4096:  # sparse: the bitmap would outgrow the addresses
        return np.unique(addrs)
    seen = np.zeros(hi - lo + 1, dtype=bool)
    seen[addrs - np.uint64(lo)] = True
    return np.flatnonzero(seen).astype(np.uint64) + np.uint64(lo)


@dataclass
class Launch:
    """What one interpreted launch touched (by element size) and its dot work."""

    name: str
    reads: dict[int, _Addresses] = field(default_factory=dict)
    writes: dict[int, _Addresses] = field(default_factory=dict)
    flops: int = 0
    compute_s: float = 0.0
    loaded: int = 0  # elements loaded (every load, repeats included)
    dot_reuse: int = 0  # the largest 2*max(M, N) of its dots: flops one loaded element can feed

    def access(self, pool: dict[int, _Addresses], ptrs, mask, fresh: Fresh, write: bool) -> np.ndarray:
        """Record one load or store; returns the addresses it touched (a store's: all its lanes)."""
        itemsize = element_bytes(ptrs)
        data = np.asarray(ptrs.data, dtype=np.uint64)
        # a mask as the lanes it lets through: the interpreter's `&` of a block mask and a program
        # scalar's comparison gives int32 0/1 (interpreter_guard._as_bool), which numpy took as
        # indices, counting two addresses of a tile or raising (honest round s41: an NHWC conv's
        # `(ih >= 0) & (iw < W)` lost its profile, reward 0.50)
        addrs = (data[np.broadcast_to(np.asarray(mask.data) != 0, data.shape)] if mask is not None
                 else data.reshape(-1).copy())
        if not write:
            self.loaded += addrs.size
        addrs = fresh.written(addrs, itemsize) if write else fresh.initialised(addrs)
        if addrs.size:
            if itemsize not in pool:
                pool[itemsize] = _Addresses()
            pool[itemsize].add(addrs)
        return addrs

    def dot_charge(self) -> tuple[int, float]:
        """(flops, compute seconds) charged: at most `dot_reuse` flops per loaded element.
        A tiled GEMM's inner step loads (BM + BN) * BK elements for 2 * BM * BN * BK flops,
        well inside that; a dot of registers no load fed (tl.zeros, tl.full, a loaded
        tile reused over and over) is not data the forward needed and is not charged."""
        cap = self.dot_reuse * self.loaded
        if self.flops <= cap:
            return self.flops, self.compute_s
        return cap, self.compute_s * cap / self.flops

    def distinct_bytes(self) -> int:
        return sum(addresses.distinct() * itemsize
                   for pool in (self.reads, self.writes) for itemsize, addresses in pool.items())


class Fresh(ByteSpans):
    """Memory torch.empty & co. handed out during the count that nothing has written yet:
    loading it reads garbage, not data (a buffer read only to look busy), so those loads
    are not charged. An aten op's outputs count as written whole; Triton stores mark
    their bytes."""

    def overwritten(self, t: torch.Tensor) -> None:
        """An aten op wrote `t`, a view: mark the bytes its strided span covers (`buf[:1].fill_(0)`
        initialises one element, not the buffer). A span it overlaps that starts elsewhere was a
        freed storage's (memory handed out again): forgotten."""
        storage = t.untyped_storage()
        lo = storage.data_ptr()
        self.forget(lo, lo + max(storage.nbytes(), 1), keep=lo)
        self.mark_view(t)

    def written(self, addrs: np.ndarray, itemsize: int) -> np.ndarray:
        """A launch stored these elements; returns them."""
        self.mark(addrs, itemsize)
        return addrs

    def initialised(self, addrs: np.ndarray) -> np.ndarray:
        """The loaded addresses that are data: those at bytes nothing wrote dropped."""
        return self.marked(addrs)
