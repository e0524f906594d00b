"""Weight buckets: how full model weights travel hub -> actors.

A bucket is several named tensors packed into one flat uint8 buffer (one zero-copy
frame on the wire) plus its layout (names, dtypes, shapes, byte offsets; see
`common.messages.BucketInfo`) and the sender's checksum of the buffer. Offsets are
16-byte aligned so every tensor can be viewed in place, whatever its dtype.
`pack_stream` cuts a model's weights into buckets of about `bucket_bytes` and packs
each on a thread pool as soon as its tensors have arrived; `bucketize` is the same,
waiting for all of them. A tensor larger than `bucket_bytes` is split into pieces of at
most that size, one bucket each (`Bucket.pieces`: the element range a bucket holds of the
tensor, whose shape it keeps), so no message exceeds the bucket size whatever the model
(a 7B model's embedding is over a GiB) and a relay forwards big tensors piece by piece;
`joined` turns the received buckets back into buckets of whole tensors for loading.

Checksums name their algorithm: "blake3:<hex>" (the default: multithreaded, about
2-4x sha256's speed per core) or "sha256:<hex>"; a bare hex digest is a legacy
sha256. The sender picks the algorithm, the receiver recomputes whatever the checksum
names, and a checksum naming an algorithm this process does not know is rejected
like a wrong one: nothing from that bucket is loaded.

Deltas (`encode_delta`, `apply_delta`): after a full version, a bucket whose layout is
the same as in the version before travels as the XOR of its bytes with that version's,
split into byte planes (for bf16: all low bytes, then all high bytes) and compressed
(`CODECS`: "zstd", multithreaded; "zlib", the standard library's). Most
words of a bf16 model do not change from one RL step to the next, so the XOR is mostly
zero bytes. Lossless: the receiver XORs the decompressed bytes into the bucket it
holds and checks the result against the checksum of the full bucket, so a wrong base,
a corrupt delta or a bug here loads nothing.
"""

from __future__ import annotations

import hashlib
import math
import warnings
import zlib
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import blake3
import torch
import zstandard

from common.messages import DTYPES, BucketInfo, WeightBucket

ALIGN = 16
ALGORITHMS = ("blake3", "sha256")
CODECS = ("zstd", "zlib")  # delta compressors; a WeightBucket names "xor<planes>-<codec>"
DEFAULT_ALGORITHM = "blake3"
_THREADED_HASH_BYTES = 8 << 20  # below this blake3's thread pool costs more than it saves
_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}


class BucketError(ValueError):
    """A bucket's layout or bytes are wrong; nothing from it may be loaded."""


class BucketChecksumError(BucketError):
    """A bucket's bytes do not match the checksum its sender computed."""


def _bytes_of(data: torch.Tensor | bytes | memoryview) -> bytes | memoryview:
    if isinstance(data, torch.Tensor):
        t = data.detach().contiguous().cpu()
        return memoryview(t.view(torch.uint8).numpy()) if t.numel() else b""
    return data


def checksum(data: torch.Tensor | bytes | memoryview, algorithm: str = DEFAULT_ALGORITHM) -> str:
    """'<algorithm>:<hex digest>' of raw bytes (a tensor's bytes in memory order)."""
    buf = _bytes_of(data)
    if algorithm == "blake3":
        threads = blake3.blake3.AUTO if len(buf) >= _THREADED_HASH_BYTES else 1
        return "blake3:" + blake3.blake3(buf, max_threads=threads).hexdigest()
    if algorithm == "sha256":
        return "sha256:" + hashlib.sha256(buf).hexdigest()  # drops the GIL for large buffers
    raise BucketError(
        f"unsupported checksum algorithm {algorithm!r}; this process knows {', '.join(ALGORITHMS)}"
    )


def algorithm_of(expected: str) -> str:
    """The algorithm a checksum string names; a bare hex digest is a legacy sha256."""
    name, sep, _ = expected.partition(":")
    return name if sep else "sha256"


def matches(data: torch.Tensor | bytes | memoryview, expected: str) -> tuple[bool, str]:
    """Whether `data` has the checksum `expected`, recomputed with the algorithm it names,
    and the recomputed checksum. Raises BucketError for an algorithm not known here."""
    algorithm = algorithm_of(expected)
    got = checksum(data, algorithm)
    return got == (expected if ":" in expected else f"sha256:{expected}"), got


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


@dataclass
class Bucket:
    """Named tensors packed in one flat uint8 buffer."""

    data: torch.Tensor  # uint8 [nbytes]
    names: list[str]
    dtypes: list[str]  # names from common.messages.DTYPES
    shapes: list[list[int]]
    offsets: list[int]  # byte offset of each tensor in `data`, 16-byte aligned
    checksum: str  # sender's checksum(data), naming its algorithm
    pieces: list[list[int]] = field(default_factory=list)
    """Empty: every entry is a whole tensor. Else [[start, count]]: the bucket holds one
    entry, elements [start, start + count) of a tensor of `shapes[0]` split across buckets."""

    @classmethod
    def pack(cls, items: Iterable[tuple], algorithm: str = DEFAULT_ALGORITHM) -> "Bucket":
        """Pack tensors from any device into a host buffer and checksum it, as a sender does.
        An item is (name, tensor), or (name, flat slice, whole shape, start) for one piece
        of a split tensor (alone in its bucket).

        Each tensor is copied once, straight into its slot (no intermediate host copy);
        the alignment padding is zeroed so the checksum depends on the tensors alone."""
        items = [
            (
                i[0],
                i[1].detach(),
                list(i[2]) if len(i) > 2 else list(i[1].shape),
                [i[3], i[1].numel()] if len(i) > 2 else None,
            )
            for i in items
        ]
        offsets, end = [], 0
        for _, t, _, _ in items:
            offsets.append(end)
            end = _aligned(end + t.numel() * t.element_size())
        data = torch.empty(end, dtype=torch.uint8)
        for (_, t, _, _), off in zip(items, offsets):
            nbytes = t.numel() * t.element_size()
            if nbytes:
                data[off : off + nbytes].copy_(t.contiguous().reshape(-1).view(torch.uint8))
            data[off + nbytes : _aligned(off + nbytes)].zero_()
        pieces = [p for *_, p in items if p is not None]
        return cls(
            data,
            [n for n, *_ in items],
            [_DTYPE_NAMES[t.dtype] for _, t, _, _ in items],
            [s for _, _, s, _ in items],
            offsets,
            checksum(data, algorithm),
            pieces,
        )

    def _entries(self) -> Iterator[tuple[str, torch.dtype, list[int], torch.Tensor, int]]:
        """(name, dtype, shape, flat view of its elements in `data`, first element) of every
        entry; bounds-checks the layout."""
        if not len(self.names) == len(self.dtypes) == len(self.shapes) == len(self.offsets):
            raise BucketError("bucket layout lists have different lengths")
        if self.pieces and (
            len(self.pieces) != 1 or len(self.names) != 1 or len(self.pieces[0]) != 2
        ):
            raise BucketError("a piece of a split tensor must be alone in its bucket")
        for name, dtype_name, shape, off in zip(self.names, self.dtypes, self.shapes, self.offsets):
            dtype = DTYPES.get(dtype_name)
            if dtype is None:
                raise BucketError(f"{name}: unknown dtype {dtype_name!r}")
            numel = math.prod(shape)
            start, count = self.pieces[0] if self.pieces else (0, numel)
            if start < 0 or count < 1 and self.pieces or start + count > numel:
                raise BucketError(
                    f"{name}: piece [{start}, {start + count}) of a {numel}-element tensor"
                )
            nbytes = count * dtype.itemsize
            if off < 0 or off % ALIGN or off + nbytes > self.data.numel():
                raise BucketError(
                    f"{name}: bytes [{off}, {off + nbytes}) are misaligned or "
                    f"outside the {self.data.numel()}-byte bucket"
                )
            yield name, dtype, shape, self.data[off : off + nbytes].view(dtype), start

    def tensors(self) -> Iterator[tuple[str, torch.Tensor]]:
        """(name, tensor) views into `data`; no copy. Bounds-checks every tensor. A bucket
        holding a piece of a split tensor has no whole tensor: see `joined`."""
        if self.pieces:
            raise BucketError(
                f"{self.names[:1]}: this bucket holds a piece of a split tensor; "
                "join the buckets first (common.buckets.joined)"
            )
        for name, _, shape, flat, _ in self._entries():
            yield name, flat.view(shape)

    def check_layout(self) -> None:
        for _ in self._entries():
            pass

    def verify(self) -> None:
        """Recompute the checksum with the algorithm it names; check the layout fits."""
        ok, got = matches(self.data, self.checksum)
        if not ok:
            raise BucketChecksumError(
                f"weight bucket ({len(self.names)} tensors, first {self.names[:1]}) fails its "
                f"checksum: sender {self.checksum[:24]}.., received {got[:24]}..; nothing loaded"
            )
        self.check_layout()

    def info(self, index: int) -> BucketInfo:
        return BucketInfo(
            index=index,
            nbytes=self.data.numel(),
            checksum=self.checksum,
            names=self.names,
            dtypes=self.dtypes,
            shapes=self.shapes,
            offsets=self.offsets,
            pieces=self.pieces,
        )

    @classmethod
    def from_wire(cls, info: BucketInfo, msg: WeightBucket) -> "Bucket":
        """Rebuild a received bucket from its layout (announced, or carried by `msg`) and
        its data message."""
        if (
            msg.checksum != info.checksum
            or msg.data.numel() != info.nbytes
            or msg.index != info.index
        ):
            raise BucketError(f"bucket {info.index}: data message does not match its layout")
        return cls(
            msg.data,
            list(info.names),
            list(info.dtypes),
            [list(s) for s in info.shapes],
            list(info.offsets),
            info.checksum,
            [list(p) for p in info.pieces],
        )


def pack_stream(
    named_tensors: Iterable[tuple[str, torch.Tensor]],
    bucket_bytes: int,
    pool: Executor,
    algorithm: str = DEFAULT_ALGORITHM,
) -> Iterator[tuple[Future, bool]]:
    """Cut (name, tensor) pairs, in order, into buckets of about bucket_bytes; yield
    (future Bucket packed on `pool`, whether it is the last bucket) as each is cut. A
    tensor over bucket_bytes goes in pieces of at most bucket_bytes, a bucket each.

    A bucket is submitted as soon as its tensors have arrived, so packing overlaps with
    producing the tensors (e.g. gathering ZeRO-3 shards), with the other buckets and,
    on the hub, with serving the buckets already packed. Whether a bucket is the last
    is known when it is cut: a bucket is cut early only by a tensor that starts the next."""
    pending, size = [], 0
    for name, t in named_tensors:
        nbytes = _aligned(t.numel() * t.element_size())
        if pending and size + nbytes > bucket_bytes:
            yield pool.submit(Bucket.pack, pending, algorithm), False
            pending, size = [], 0
        if nbytes <= bucket_bytes or t.numel() < 2:
            pending.append((name, t))
            size += nbytes
            continue
        flat = t.detach().contiguous().reshape(-1)
        per = max(1, bucket_bytes // ALIGN * ALIGN // t.element_size())  # no padding over
        pieces = [(name, flat[s : s + per], list(t.shape), s) for s in range(0, t.numel(), per)]
        for piece in pieces[:-1]:
            yield pool.submit(Bucket.pack, [piece], algorithm), False
        pending, size = [pieces[-1]], math.inf  # alone: whatever comes next starts a bucket
    if pending:
        yield pool.submit(Bucket.pack, pending, algorithm), True


def joined(buckets: Iterable[Bucket]) -> Iterator[Bucket]:
    """`buckets` with every split tensor's pieces joined into one bucket of the whole
    tensor (a copy of its bytes; other buckets pass as they are), in order. Pieces must
    come in consecutive buckets, in order, covering their tensor exactly: anything else
    is a BucketError and nothing should be loaded. Checksums are not recomputed (verify
    the buckets first); a joined bucket's is ""."""
    acc: list = []  # name, dtype, shape, whole flat tensor, elements filled
    for bucket in buckets:
        if not bucket.pieces:
            if acc:
                raise BucketError(f"{acc[0]}: split tensor ends after {acc[4]} elements")
            yield bucket
            continue
        name, dtype, shape, flat, start = next(bucket._entries())
        if not acc:
            acc = [name, dtype, shape, torch.empty(math.prod(shape), dtype=dtype), 0]
        if (name, dtype, shape, start) != (acc[0], acc[1], acc[2], acc[4]):
            raise BucketError(
                f"{name}: piece at element {start} does not continue {acc[0]} (filled to {acc[4]})"
            )
        acc[3][start : start + flat.numel()].copy_(flat)
        acc[4] += flat.numel()
        if acc[4] == acc[3].numel():
            yield Bucket(acc[3].view(torch.uint8), [name], [_DTYPE_NAMES[dtype]], [shape], [0], "")
            acc = []
    if acc:
        raise BucketError(f"{acc[0]}: split tensor ends after {acc[4]} elements")


def whole_tensors(buckets: Iterable[Bucket]) -> Iterator[tuple[str, torch.Tensor]]:
    """Every (name, tensor) of `buckets`, split tensors joined (see `joined`)."""
    for bucket in joined(buckets):
        yield from bucket.tensors()


def bucketize(
    named_tensors: Iterable[tuple[str, torch.Tensor]],
    bucket_bytes: int,
    threads: int = 1,
    algorithm: str = DEFAULT_ALGORITHM,
) -> list[Bucket]:
    """Every bucket of `pack_stream`, packed on `threads` threads (copies and hashing drop
    the GIL), in order."""
    with ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="bucketize") as pool:
        futures = [f for f, _ in pack_stream(named_tensors, bucket_bytes, pool, algorithm)]
        return [f.result() for f in futures]


def _xor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Bytewise XOR of two equal-length uint8 buffers (as int64 words where they align)."""
    if a.numel() != b.numel():
        raise BucketError(f"delta of {a.numel()} bytes against a {b.numel()}-byte base")
    if a.numel() % 8 == 0:
        return torch.bitwise_xor(a.view(torch.int64), b.view(torch.int64)).view(torch.uint8)
    return torch.bitwise_xor(a, b)


def same_layout(a: Bucket, b: Bucket) -> bool:
    return (a.names, a.dtypes, a.shapes, a.offsets, a.pieces) == (
        b.names,
        b.dtypes,
        b.shapes,
        b.offsets,
        b.pieces,
    )


def _word_bytes(bucket: Bucket) -> int:
    """The element size shared by every tensor of the bucket, else 1."""
    sizes = {DTYPES[d].itemsize for d in bucket.dtypes if d in DTYPES}
    return sizes.pop() if len(sizes) == 1 and bucket.data.numel() % ALIGN == 0 else 1


def encode_delta(new: Bucket, base: Bucket, codec: str) -> tuple[torch.Tensor, str]:
    """The compressed XOR of `new`'s bytes with `base`'s (same layout), as uint8, and its
    encoding, "xor<k>-<codec>": the XOR's bytes are split into k byte planes (byte 0 of
    every k-byte word, then byte 1, ...; k = the bucket's element size), so the planes
    that rarely change (sign and exponent) compress to almost nothing."""
    if not same_layout(new, base):
        raise BucketError("a delta needs the same bucket layout in both versions")
    k = _word_bytes(new)
    xored = _xor(new.data, base.data)
    if k > 1:
        xored = xored.view(-1, k).t().contiguous().view(-1)
    raw = memoryview(xored.numpy())
    if codec == "zstd":
        out = zstandard.ZstdCompressor(level=1, threads=-1 if len(raw) >= 8 << 20 else 0).compress(
            raw
        )
    elif codec == "zlib":
        out = zlib.compress(raw, 1)
    else:
        raise BucketError(f"unknown delta codec {codec!r}; this process knows {CODECS}")
    data = (
        torch.frombuffer(bytearray(out), dtype=torch.uint8)
        if out
        else torch.empty(0, dtype=torch.uint8)
    )
    return data, f"xor{k}-{codec}"


def _parse_encoding(encoding: str) -> tuple[int, str]:
    kind, _, codec = encoding.partition("-")
    planes = kind.removeprefix("xor")
    if not kind.startswith("xor") or planes not in ("", "1", "2", "4", "8") or codec not in CODECS:
        raise BucketError(f"unknown delta encoding {encoding[:40]!r}")
    return int(planes or 1), codec


def apply_delta(base: Bucket, delta: torch.Tensor, encoding: str, info: BucketInfo) -> Bucket:
    """The full bucket `info` describes, rebuilt from the bucket held (`base`) and a delta
    made by `encode_delta`; not verified (call `verify`)."""
    k, codec = _parse_encoding(encoding)
    blob = memoryview(delta.numpy()) if delta.numel() else b""
    try:
        if codec == "zstd":
            raw = zstandard.ZstdDecompressor().decompress(blob, max_output_size=info.nbytes)
        else:
            raw = zlib.decompress(blob, bufsize=max(1, info.nbytes))
    except (zstandard.ZstdError, zlib.error) as exc:
        raise BucketError(f"bucket {info.index}: delta does not decompress: {exc}") from exc
    if len(raw) != info.nbytes or base.data.numel() != info.nbytes or info.nbytes % k:
        raise BucketError(
            f"bucket {info.index}: delta of {len(raw)} bytes, base of "
            f"{base.data.numel()}, bucket of {info.nbytes}"
        )
    with warnings.catch_warnings():  # read-only is fine: the XOR writes a new tensor
        warnings.simplefilter("ignore", UserWarning)
        xored = (
            torch.frombuffer(raw, dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
        )
    if k > 1:
        xored = xored.view(k, -1).t().contiguous().view(-1)
    data = _xor(xored, base.data)
    return Bucket(
        data,
        list(info.names),
        list(info.dtypes),
        [list(s) for s in info.shapes],
        list(info.offsets),
        info.checksum,
        [list(p) for p in info.pieces],
    )
