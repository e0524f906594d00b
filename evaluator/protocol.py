"""Parent <-> sandboxed child protocol (evaluator-internal; not a system wire type).

A worker talks to each child over two pipes (parent->child commands, child->parent
replies). One message on a pipe is

    u32 n_frames | n_frames x u64 frame length | frame 0 | frame 1 | ...

Frame 0 is a msgpack map (decoded with msgspec, never pickle). Tensors travel as
raw byte frames: the map's "tensors" entry lists one {"dtype", "shape"} per tensor,
and tensor i is frame i + 1, C-contiguous, in the dtype's native byte order.

Commands (parent -> child; "op" names them; see evaluator.child for the fields):
  reference  run the problem's Model on seeded trial inputs (trusted child only)
  load       import the problem and the candidate, build ModelNew
  trials     run ModelNew on seeded trial inputs, return outputs and launch records
  benchmark  time reference and candidate, side-stream check, profile, re-check
  reset      forget the problem and candidate, report whether the process is intact
Replies (child -> parent): {"op": "ready", ...} once after start-up, then one
{"op": "result", ...} or {"op": "error", "kind", "message", "traceback"} per command.

The parent reads with a deadline and a byte bound, so a hung or flooding child costs
at most its timeout and never the parent's memory; the child reads without deadline
(when the parent goes away the pipe closes and the child exits).

Large tensors (the arena's `min_bytes` and up) do not cross the reply pipe: a pipe moves about
1 GB/s, and a level-1 KernelBench evaluation moves tens of GiB. The parent gives each
child a reply arena, a memfd it created and sealed against shrinking (`Arena`); the
child writes such a tensor there and its frame in the pipe is empty, the header's
"arena" list giving [offset, nbytes] per tensor (null: in the pipe). The parent copies
each one out into its own memory before it decodes anything: what it then checks is
its snapshot, whatever the child writes in the arena afterwards (the child's harness
writes a reply's arena only after the parent has read the one before: one reply per
command). An offset or size
beyond the arena, or more bytes than the bound, is a protocol error; the child cannot
shrink the arena under the parent's reads (the seal), only grow it.
"""
from __future__ import annotations

import ctypes
import fcntl
import math
import mmap
import os
import select
import struct
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import torch

# the worker reads the reply arena through a read-only mapping, on purpose (Arena.copy_out)
warnings.filterwarnings("ignore", message="The given buffer is not writable", category=UserWarning)

MAX_FRAMES = 4096
_COUNT = struct.Struct("<I")
_LEN = struct.Struct("<Q")

DTYPES: dict[str, torch.dtype] = {
    "float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
    "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
    "complex64": torch.complex64, "complex128": torch.complex128,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}


class ChannelError(Exception):
    """The peer broke the protocol, closed the pipe or did not answer in time."""


class ChannelClosed(ChannelError):
    """End of file: the peer exited."""


class ChannelTimeout(ChannelError):
    """The deadline passed before a whole message arrived."""


def _describe(t: torch.Tensor) -> tuple[dict, torch.Tensor]:
    """Descriptor and the tensor's bytes as a flat uint8 tensor, on its own device."""
    if t.dtype not in DTYPE_NAMES:
        raise TypeError(f"tensors of dtype {t.dtype} cannot be sent")
    flat = t.detach().contiguous().reshape(-1)
    return {"dtype": DTYPE_NAMES[t.dtype], "shape": list(t.shape)}, flat.view(torch.uint8)


def _kind(value: Any) -> str:
    """What a malformed reply held, named by type and length only: a reason ends in the
    verdict's feedback, and the child's own strings there would be text it chose."""
    size = f" of {len(value)}" if isinstance(value, (list, dict, str, bytes)) else ""
    return f"{type(value).__name__}{size}"


def tensor_from(desc: Any, buf: memoryview) -> torch.Tensor:
    """Rebuild a tensor from its descriptor and frame, checking dtype, shape and size."""
    if not isinstance(desc, dict) or desc.get("dtype") not in DTYPES:
        raise ChannelError(f"bad tensor descriptor (a {_kind(desc)})")
    shape = desc.get("shape")
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise ChannelError(f"bad tensor shape (a {_kind(shape)})")
    dtype = DTYPES[desc["dtype"]]
    nbytes = math.prod(shape) * torch.empty((), dtype=dtype).element_size()
    if buf.nbytes != nbytes:
        raise ChannelError(f"tensor {desc['dtype']}{shape} needs {nbytes} bytes, got {buf.nbytes}")
    if nbytes == 0:
        return torch.empty(shape, dtype=dtype)
    if buf.readonly:
        buf = memoryview(bytearray(buf))
    return torch.frombuffer(buf, dtype=torch.uint8).view(dtype).reshape(shape)


def encode(header: dict) -> list:
    """Frames of one tensor-free message (the parent's commands)."""
    return [msgspec.msgpack.encode(dict(header, tensors=[]))]


def decode(frames: list[memoryview]) -> tuple[dict, list[torch.Tensor]]:
    """Header map and tensors of a received message."""
    # Whatever goes wrong here is the sender's: bytes a candidate's process wrote (a header
    # nested 100,000 deep raises RecursionError, not DecodeError) must end as its crash, never
    # as an exception the worker takes for its own failure.
    try:
        head = msgspec.msgpack.decode(frames[0])
    except Exception as exc:  # noqa: BLE001
        raise ChannelError(f"unreadable header: {type(exc).__name__}: {exc!s:.200}") from None
    if not isinstance(head, dict) or not isinstance(head.get("op"), str):
        raise ChannelError("header is not a map with an 'op'")
    descs = head.get("tensors", [])
    if not isinstance(descs, list) or len(descs) != len(frames) - 1:
        raise ChannelError("tensor descriptors do not match the frames")
    try:
        return head, [tensor_from(d, f) for d, f in zip(descs, frames[1:])]
    except ChannelError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise ChannelError(f"bad tensor descriptor: {type(exc).__name__}: {exc!s:.200}") from None


def _prefix(frames: list) -> bytes:
    lens = [memoryview(f).nbytes for f in frames]
    return _COUNT.pack(len(frames)) + b"".join(_LEN.pack(n) for n in lens)


ARENA_MIN_BYTES = 8 << 20
_ALIGN = 4096
_F_ADD_SEALS, _F_SEAL_SHRINK = 1033, 2


class Arena:
    """A reply arena (module docstring): created by the parent (`create`), written by the
    child (`put`), read by the parent (`copy_out`), which never maps beyond its size. For
    device tensors the child keeps one mapping, page-locked with the CUDA driver, for its
    life (`_lock`); what the arena holds is counted once by the worker's memory watchdog
    (`resident_bytes`, less the job's resident shared memory up to that much), however the
    child wrote it."""

    def __init__(self, fd: int, min_bytes: int = ARENA_MIN_BYTES):
        self.fd, self.min_bytes = fd, min_bytes  # min_bytes: smaller tensors take the pipe
        self._view: mmap.mmap | None = None  # the parent's read-only mapping, reused
        self._locked: tuple[mmap.mmap, torch.Tensor] | None = None  # the child's page-locked mapping

    @classmethod
    def create(cls, size: int = 0) -> Arena:
        """A new arena of `size` bytes (sparse: memory only where the child writes), so the
        child, whose RLIMIT_FSIZE also bounds a memfd, need not grow it."""
        fd = os.memfd_create("krl-reply-arena", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        os.ftruncate(fd, size)
        fcntl.fcntl(fd, _F_ADD_SEALS, _F_SEAL_SHRINK)  # permanent: the parent's reads never fault
        return cls(fd)

    def resident_bytes(self) -> int:
        """Memory the arena holds (written pages), 0 once closed."""
        try:
            return os.fstat(self.fd).st_blocks * 512 if self.fd >= 0 else 0
        except OSError:  # closed meanwhile
            return 0

    def put(self, raws: list[torch.Tensor | None]) -> list[list[int] | None]:
        """Child side: write each given flat uint8 tensor into the arena, growing it as
        needed; [offset, nbytes] per tensor."""
        places, end = [], 0
        for raw in raws:
            if raw is None:
                places.append(None)
                continue
            places.append([end, raw.numel()])
            end += -(-raw.numel() // _ALIGN) * _ALIGN
        if os.fstat(self.fd).st_size < end:
            os.ftruncate(self.fd, end)
        if any(r is not None and r.device.type == "cuda" for r in raws) and self._lock(end):
            whole = self._locked[1]
            for raw, place in zip(raws, places):
                if raw is not None:  # from the device: one DMA into the page-locked arena
                    whole[place[0]:place[0] + place[1]].copy_(raw)
            del whole
            return places
        mapped = mmap.mmap(self.fd, end, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        whole = torch.frombuffer(mapped, dtype=torch.uint8) if end else None
        try:
            for raw, place in zip(raws, places):
                if raw is None:
                    continue
                dest = whole[place[0]:place[0] + place[1]]
                if raw.device.type == "cpu":
                    dest.copy_(raw)
                else:
                    stage = _staging()
                    for start in range(0, raw.numel(), stage.numel()):
                        part = raw[start:start + stage.numel()]
                        stage[:part.numel()].copy_(part)  # device to pinned host memory: synchronous
                        dest[start:start + part.numel()].copy_(stage[:part.numel()])
                del dest
        finally:
            del whole
            mapped.close()
        return places

    def _lock(self, end: int) -> bool:
        """Child side: a mapping of at least `end` bytes, registered with the CUDA driver and
        kept for the child's life (registering 6 GiB took ~1.2 s of a 1.5 s reply, every
        reply); remapped larger when a reply needs more. False: the staged path."""
        if self._locked is not None and self._locked[1].numel() >= end:
            return True
        self._unlock()
        mapped = mmap.mmap(self.fd, end, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        whole = torch.frombuffer(mapped, dtype=torch.uint8)
        if not _page_lock(whole):
            del whole
            mapped.close()
            return False
        self._locked = (mapped, whole)
        return True

    def _unlock(self) -> None:
        if self._locked is not None:
            mapped, whole = self._locked
            self._locked = None
            _page_unlock(whole)
            del whole
            mapped.close()

    def copy_out(self, offset: int, nbytes: int) -> memoryview:
        """Parent side: a private copy of the arena's bytes [offset, offset + nbytes)."""
        size = os.fstat(self.fd).st_size
        if offset < 0 or nbytes < 0 or offset + nbytes > size:
            raise ChannelError(f"arena range [{offset}, {offset + nbytes}) is outside the arena of {size} bytes")
        buf = _receive_buffer(nbytes, populate=False)
        if not nbytes:
            return memoryview(buf)
        if self._view is None or len(self._view) < offset + nbytes:
            if self._view is not None:
                self._view.close()
                self._view = None
            try:
                self._view = mmap.mmap(self.fd, offset + nbytes, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
            except OSError as exc:
                raise ChannelError(f"the reply arena cannot be mapped: {exc}") from None
        # torch's copy: threaded, and it lets go of the GIL (other evaluations go on)
        src = torch.frombuffer(self._view, dtype=torch.uint8, count=nbytes, offset=offset)
        torch.frombuffer(buf, dtype=torch.uint8).copy_(src)
        del src
        return memoryview(buf)

    def close(self) -> None:
        self._unlock()
        if self._view is not None:
            self._view.close()
            self._view = None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def write_blocking(fd: int, header: dict, tensors: Sequence[torch.Tensor] = (),
                   arena: Arena | None = None) -> None:
    """Child side: write one message, blocking until the parent has taken it. Tensors of
    the arena's `min_bytes` and up go into it when there is one. Other device tensors
    stream through one reused pinned staging buffer, a slice at a time: no host copy of a
    whole output is made, and no fresh host memory is faulted in per message."""
    described = [_describe(t) for t in tensors]
    extra: dict = {}
    piped = [raw for _, raw in described]
    if arena is not None and any(raw.numel() >= arena.min_bytes for _, raw in described):
        try:
            extra["arena"] = arena.put([raw if raw.numel() >= arena.min_bytes else None for _, raw in described])
            piped = [raw if place is None else raw[:0] for (_, raw), place in zip(described, extra["arena"])]
        except (OSError, ChannelError):  # the arena cannot hold it (its size, RLIMIT_FSIZE): the pipe does
            pass
    head = msgspec.msgpack.encode(dict(header, tensors=[d for d, _ in described], **extra))
    lens = [len(head), *(raw.numel() for raw in piped)]
    _write_all(fd, memoryview(_COUNT.pack(len(lens)) + b"".join(_LEN.pack(n) for n in lens)))
    _write_all(fd, memoryview(head))
    for raw in piped:
        if not raw.numel():
            continue
        if raw.device.type == "cpu":
            _write_all(fd, memoryview(raw.numpy()).cast("B"))
            continue
        stage = _staging()
        for start in range(0, raw.numel(), stage.numel()):
            part = raw[start:start + stage.numel()]
            buf = stage[:part.numel()]
            buf.copy_(part)  # device to pinned host memory: synchronous
            _write_all(fd, memoryview(buf.numpy()).cast("B"))


def _driver() -> Any:
    """The CUDA driver library (loaded already by torch), or None."""
    if not _cuda_lib:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
            lib.cuMemHostRegister_v2.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint]
            lib.cuMemHostUnregister.argtypes = [ctypes.c_void_p]
        except (OSError, AttributeError):
            lib = None
        _cuda_lib.append(lib)
    return _cuda_lib[0]


def _page_lock(t: torch.Tensor) -> bool:
    """Register host memory with the CUDA driver, so a device-to-host copy into it is one
    DMA: through the 64 MiB pinned stage, with the CPU copying each slice on into the
    arena (one thread in a child), a 6 GiB output took ~4.7 s per trial on the H200 host.
    The driver API leaves the runtime's last error alone, so a refusal (no context current
    on this thread, a host without it) costs nothing but the staged path."""
    lib = _driver()
    if lib is None:
        return False
    torch.cuda.synchronize()  # the runtime makes its context current on this thread
    return lib.cuMemHostRegister_v2(t.data_ptr(), t.numel(), 0) == 0


def _page_unlock(t: torch.Tensor) -> None:
    _driver().cuMemHostUnregister(t.data_ptr())


_cuda_lib: list = []
_STAGE_BYTES = 64 << 20
_stage: list[torch.Tensor] = []


def _staging() -> torch.Tensor:
    if not _stage:
        try:
            _stage.append(torch.empty(_STAGE_BYTES, dtype=torch.uint8, pin_memory=True))
        except RuntimeError:  # no pinned memory here: a reused pageable buffer still faults in once
            _stage.append(torch.empty(_STAGE_BYTES, dtype=torch.uint8))
    return _stage[0]


def _write_all(fd: int, view: memoryview) -> None:
    while view.nbytes:
        view = view[os.write(fd, view):]


def write_deadline(fd: int, header: dict, deadline: float,
                   clock: Callable[[], float] = time.monotonic) -> None:
    """Parent side: write one (tensor-free) command without blocking past the deadline (on
    `clock`: a sandbox's job clock stops while it is frozen, evaluator.sandbox)."""
    frames = encode(header)
    data = memoryview(_prefix(frames) + b"".join(bytes(f) for f in frames))
    while data.nbytes:
        left = deadline - clock()
        if left <= 0:
            raise ChannelTimeout("the child stopped reading commands")
        try:
            _, ready, _ = select.select([], [fd], [], min(left, 0.2))
        except (OSError, ValueError) as exc:  # a pipe closed when its child was ended
            raise ChannelClosed(f"the command pipe is closed: {exc}") from None
        if ready:
            try:
                data = data[os.write(fd, data[: 1 << 16]):]
            except (BrokenPipeError, OSError) as exc:
                raise ChannelClosed(f"the child closed its command pipe: {exc}") from None


_POPULATE_BYTES = 8 << 20


def _receive_buffer(n: int, populate: bool = True) -> bytearray | mmap.mmap:
    """Memory for one frame. A large one read from the pipe (one thread) is mapped with its
    pages populated in one go: faulting a fresh GiB in page by page costs more than moving it
    through the pipe. One filled by torch's threaded copy (`populate=False`, the arena) is
    faulted in by those threads: on the H200 host MAP_POPULATE zeroed 1.6-2.2 GB/s, the
    threaded copy into a plain mapping ran at 14-17 GB/s."""
    if n < _POPULATE_BYTES:
        return bytearray(n)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | (getattr(mmap, "MAP_POPULATE", 0) if populate else 0)
    return mmap.mmap(-1, n, flags=flags)


class Reader:
    """Reads whole messages from a pipe with a deadline and a size bound (parent side),
    or blocking without either (child side, deadline=None). Deadlines are on `clock`."""

    def __init__(self, fd: int, max_bytes: int = 1 << 62, on_wait: Callable[[], None] | None = None,
                 arena: Arena | None = None, clock: Callable[[], float] = time.monotonic):
        self.fd, self.max_bytes, self.on_wait, self.arena = fd, max_bytes, on_wait, arena
        self.clock = clock

    def _read_exact(self, n: int, deadline: float | None) -> memoryview:
        buf = _receive_buffer(n)
        view, got = memoryview(buf), 0
        while got < n:
            if deadline is not None and not self._wait_readable(deadline):
                raise ChannelTimeout("no complete reply before the deadline")
            chunk = os.readv(self.fd, [view[got:got + (1 << 20)]])
            if chunk == 0:
                raise ChannelClosed("the peer closed the pipe")
            got += chunk
        return view

    def _wait_readable(self, deadline: float) -> bool:
        """Wait for data until the deadline, calling on_wait (a watchdog) every 0.2 s."""
        while True:
            left = deadline - self.clock()
            if left <= 0:
                return False
            if select.select([self.fd], [], [], min(left, 0.2))[0]:
                return True
            if self.on_wait is not None:
                self.on_wait()

    def read(self, deadline: float | None) -> tuple[dict, list[torch.Tensor]]:
        (n,) = _COUNT.unpack(self._read_exact(_COUNT.size, deadline))
        if not 1 <= n <= MAX_FRAMES:
            raise ChannelError(f"message with {n} frames")
        lens = [_LEN.unpack(self._read_exact(_LEN.size, deadline))[0] for _ in range(n)]
        if sum(lens) > self.max_bytes:
            raise ChannelError(f"message of {sum(lens)} bytes exceeds the {self.max_bytes}-byte bound")
        frames = [self._read_exact(k, deadline) for k in lens]
        return decode(self._from_arena(frames, sum(lens)))

    def _from_arena(self, frames: list[memoryview], piped: int) -> list[memoryview]:
        """The frames, with those the header places in the arena copied out of it."""
        try:
            places = msgspec.msgpack.decode(frames[0]).get("arena")
        except Exception:  # noqa: BLE001  (any failure: decode() says what is wrong with it)
            return frames
        if places is None:
            return frames
        if self.arena is None:
            raise ChannelError("the reply places tensors in an arena this channel does not have")
        if not isinstance(places, list) or len(places) != len(frames) - 1:
            raise ChannelError("the arena places do not match the frames")
        total = piped
        for place, frame in zip(places, frames[1:]):
            if place is None:
                continue
            if not (isinstance(place, list) and len(place) == 2 and all(type(v) is int for v in place)) \
                    or frame.nbytes:
                raise ChannelError(f"bad arena place (a {_kind(place)})")
            total += place[1]
        if total > self.max_bytes:
            raise ChannelError(f"message of {total} bytes exceeds the {self.max_bytes}-byte bound")
        return [frames[0], *(f if p is None else self.arena.copy_out(*p) for p, f in zip(places, frames[1:]))]
