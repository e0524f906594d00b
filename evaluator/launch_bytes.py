"""What one interpreted launch touched, for the CPU work meter (evaluator.cpu_work): the
distinct addresses it loaded and stored (deduplicated in chunks), its tl.dot flops capped by
what it loaded, and which memory torch.empty & co. handed out that nothing has written yet
(loads of it are no work: garbage read to look busy)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

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
        itemsize = max(1, ptrs.get_element_ty().primitive_bitwidth // 8)
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


class Fresh:
    """Memory torch.empty & co. handed out during the count that nothing has written yet:
    loading it reads garbage, not data (a buffer read only to look busy), so those loads
    are not charged. An aten op's outputs count as written whole; Triton stores mark
    their bytes."""

    def __init__(self) -> None:
        self.spans: dict[int, tuple[int, np.ndarray]] = {}  # start -> (end, written bytes)

    def allocated(self, t: torch.Tensor) -> None:
        self.overwritten(t)
        storage = t.untyped_storage()
        if storage.nbytes():
            start = storage.data_ptr()
            self.spans[start] = (start + storage.nbytes(), np.zeros(storage.nbytes(), dtype=bool))

    def overwritten(self, t: torch.Tensor, whole: bool = True) -> None:
        """`t` now holds data. `whole`: a new storage (memory freed and handed out again
        lands where an old span was): forget every span it overlaps; else an aten op wrote
        `t`, a view: mark the bytes its strided span covers (`buf[:1].fill_(0)` initialises
        one element, not the buffer)."""
        if not self.spans:
            return
        storage = t.untyped_storage()
        lo, hi = storage.data_ptr(), storage.data_ptr() + max(storage.nbytes(), 1)
        for start in [s for s, (end, _) in self.spans.items() if s < hi and lo < end]:
            end, done = self.spans[start]
            if whole or start != lo:
                del self.spans[start]
                continue
            first = t.data_ptr() - start
            done[max(first, 0):min(first + _span_bytes(t), done.size)] = True

    def _inside(self, addrs: np.ndarray):
        for start, (end, done) in self.spans.items():
            inside = (addrs >= np.uint64(start)) & (addrs < np.uint64(end))
            if inside.any():
                yield inside, (addrs[inside] - np.uint64(start)).astype(np.int64), done

    def written(self, addrs: np.ndarray, itemsize: int) -> np.ndarray:
        for _, offsets, done in self._inside(addrs):
            for k in range(itemsize):
                done[np.minimum(offsets + k, done.size - 1)] = True
        return addrs

    def initialised(self, addrs: np.ndarray) -> np.ndarray:
        keep = None
        for inside, offsets, done in self._inside(addrs):
            if keep is None:
                keep = np.ones(addrs.size, dtype=bool)
            keep[np.flatnonzero(inside)[~done[offsets]]] = False
        return addrs if keep is None else addrs[keep]


def _span_bytes(t: torch.Tensor) -> int:
    """Bytes from a tensor's first element to just past its last (0 when empty)."""
    if t.numel() == 0:
        return 0
    try:
        span = 1 + sum((s - 1) * abs(st) for s, st in zip(t.shape, t.stride()) if s > 1)
    except (RuntimeError, NotImplementedError):
        span = t.numel()
    return span * t.element_size()
