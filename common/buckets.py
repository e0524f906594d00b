"""Weight buckets: how full model weights travel hub -> actors.

A bucket is several named tensors packed into one flat uint8 buffer (one zero-copy
frame on the wire) plus its layout (names, dtypes, shapes, byte offsets; see
`common.messages.BucketInfo`) and the sender's sha256 of the buffer. Offsets are
16-byte aligned so every tensor can be viewed in place, whatever its dtype.
`bucketize` cuts a model's weights into buckets of about `bucket_bytes`; a tensor
larger than that gets a bucket of its own.
"""
from __future__ import annotations

import hashlib
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable, Iterator

import torch

from common.messages import DTYPES, BucketInfo, WeightBucket

ALIGN = 16
_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}


class BucketError(ValueError):
    """A bucket's layout or bytes are wrong; nothing from it may be loaded."""


class BucketChecksumError(BucketError):
    """A bucket's bytes do not match the checksum its sender computed."""


def checksum(data: torch.Tensor | bytes | memoryview) -> str:
    """sha256 hex digest of raw bytes (a tensor's bytes in memory order)."""
    if isinstance(data, torch.Tensor):
        t = data.detach().contiguous().cpu()
        data = t.view(torch.uint8).numpy() if t.numel() else b""
    return hashlib.sha256(data).hexdigest()  # hashlib drops the GIL for large buffers


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


@dataclass
class Bucket:
    """Named tensors packed in one flat uint8 buffer."""

    data: torch.Tensor            # uint8 [nbytes]
    names: list[str]
    dtypes: list[str]             # names from common.messages.DTYPES
    shapes: list[list[int]]
    offsets: list[int]            # byte offset of each tensor in `data`, 16-byte aligned
    checksum: str                 # sender's checksum(data)

    @classmethod
    def pack(cls, named_tensors: Iterable[tuple[str, torch.Tensor]]) -> "Bucket":
        """Pack tensors (moved to CPU) and checksum them, as a sender does."""
        items = [(n, t.detach().contiguous().cpu()) for n, t in named_tensors]
        offsets, end = [], 0
        for _, t in items:
            offsets.append(end)
            end = _aligned(end + t.numel() * t.element_size())
        data = torch.zeros(end, dtype=torch.uint8)
        for (_, t), off in zip(items, offsets):
            data[off:off + t.numel() * t.element_size()] = t.reshape(-1).view(torch.uint8)
        return cls(data, [n for n, _ in items], [_DTYPE_NAMES[t.dtype] for _, t in items],
                   [list(t.shape) for _, t in items], offsets, checksum(data))

    def tensors(self) -> Iterator[tuple[str, torch.Tensor]]:
        """(name, tensor) views into `data`; no copy. Bounds-checks every tensor."""
        if not len(self.names) == len(self.dtypes) == len(self.shapes) == len(self.offsets):
            raise BucketError("bucket layout lists have different lengths")
        for name, dtype_name, shape, off in zip(self.names, self.dtypes, self.shapes, self.offsets):
            dtype = DTYPES.get(dtype_name)
            if dtype is None:
                raise BucketError(f"{name}: unknown dtype {dtype_name!r}")
            nbytes = math.prod(shape) * dtype.itemsize
            if off < 0 or off % ALIGN or off + nbytes > self.data.numel():
                raise BucketError(f"{name}: bytes [{off}, {off + nbytes}) are misaligned or "
                                  f"outside the {self.data.numel()}-byte bucket")
            yield name, self.data[off:off + nbytes].view(dtype).view(shape)

    def verify(self) -> None:
        """Recompute the checksum and check the layout fits the buffer."""
        got = checksum(self.data)
        if got != self.checksum:
            raise BucketChecksumError(
                f"weight bucket ({len(self.names)} tensors, first {self.names[:1]}) fails its "
                f"checksum: sender {self.checksum[:16]}.., received {got[:16]}..; nothing loaded")
        for _ in self.tensors():
            pass

    def info(self, index: int) -> BucketInfo:
        return BucketInfo(index=index, nbytes=self.data.numel(), checksum=self.checksum,
                          names=self.names, dtypes=self.dtypes, shapes=self.shapes,
                          offsets=self.offsets)

    @classmethod
    def from_wire(cls, info: BucketInfo, msg: WeightBucket) -> "Bucket":
        """Rebuild a received bucket from its announced layout and its data message."""
        if msg.checksum != info.checksum or msg.data.numel() != info.nbytes:
            raise BucketError(f"bucket {info.index}: data message does not match the announcement")
        return cls(msg.data, list(info.names), list(info.dtypes), [list(s) for s in info.shapes],
                   list(info.offsets), info.checksum)


def bucketize(named_tensors: Iterable[tuple[str, torch.Tensor]], bucket_bytes: int,
              threads: int = 1) -> list[Bucket]:
    """Cut (name, tensor) pairs, in order, into buckets of about bucket_bytes.

    Buckets are packed and checksummed on `threads` worker threads (copies and sha256 drop
    the GIL), each as soon as its tensors have arrived, so packing overlaps with producing
    the tensors (e.g. gathering ZeRO-3 shards) and with the other buckets.
    """
    futures, pending, size = [], [], 0
    with ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="bucketize") as pool:
        for name, t in named_tensors:
            nbytes = _aligned(t.numel() * t.element_size())
            if pending and size + nbytes > bucket_bytes:
                futures.append(pool.submit(Bucket.pack, pending))
                pending, size = [], 0
            pending.append((name, t))
            size += nbytes
        if pending:
            futures.append(pool.submit(Bucket.pack, pending))
        return [f.result() for f in futures]
