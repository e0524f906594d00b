"""The values a launch of the dry launch model's real forward (evaluator.dry_tells) loads where
the GPU's launch would load the same: what its storages held when the launch was made.

Session 66's per-lane dependence on the data (evaluator.dry_taint) stores a lane the loaded
data decides maybe, never for certain, since the model's loads return zeros. That left a capped
grid whose every store lane the data decides unjudged: `(pid < 4096) ^ (x != x)` stores no lane
for certain at either size and may store every lane at both (red team s66c, ok at 1.0007), and
a full grid whose addresses a loaded zero wraps into a capped window counts every lane loose
(s66c). A fixed draw would not do: a kernel can tell the model's zeros (or any value it makes
up) from the problem's draw (`x == 0` holds nowhere on a normal draw). So where a store's mask
or address is the data's to decide, the model runs on the problem's own CPU draw at the same
sizes (dry_phase `_grounded`), and a lane loads, from a storage its launch was handed, the bytes
that storage held when the launch was made (`take`: a copy, since the forward's later host code
may write the storage again before the model runs) where the GPU's launch loads the same: the
storage is an input of the forward, a parameter, or made by an op that computes it (torch.zeros,
a clone, a top-k), no launch made before and not run may have stored into it (dry_tells
`launched`: the model runs no launch's stores for real, and a skipped decoy's are nowhere; the
launches whose stores a steered launch loads run in the real forward again, dry_tells `feeds`:
a flag a one-program launch set to 1 stayed the data's, red team s67e), it was not made by
an op that leaves memory as it was (`FRESH_OPS`: torch.empty holds noise here and whatever the
GPU's allocator left there: zeros in a fresh block), and the running launch has not stored the
element itself yet (dry_memory: as the CPU's interpreter runs programs one after another). Such
a lane's value is known (dry_taint), so the mask it decides is the GPU's on that draw: stored
for certain, or not stored. Every other lane loads zeros and stays the data's, as before.
"""
from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

LIMIT_BYTES = 1 << 31  # bytes of distinct copies in one forward at most (past it: refused, `Past`)

_SNAPSHOTS: dict[int, list] = {}  # launch ordinal -> [(address, its bytes when the launch was made)]
_UNSET: dict[int, Any] = {}  # storage key -> the storage (held), made by an op leaving memory as it was
_KNOWN: dict[int, np.ndarray] = {}  # unset storage key -> its bytes set since from known values (`learn`)
_HELD = [0]
_LAST: dict[int, tuple] = {}  # storage key -> (address, its last copy): an unchanged storage shares it


class Past(RuntimeError):
    """More distinct copies than LIMIT_BYTES: where the model would read zeros past the limit, a
    forward could spend it on decoys first (evaluator.dry_tells refuses it: a tell)."""


def start() -> None:
    """A new forward: nothing copied, nothing made."""
    _SNAPSHOTS.clear()
    _UNSET.clear()
    _KNOWN.clear()
    _LAST.clear()
    _HELD[0] = 0


def made_unset(key: int, tensor: Any) -> None:
    """A tensor's storage an op that leaves memory as it was made (torch.empty), or an op wrote
    from such a storage: never known here."""
    if key != -1:
        _UNSET[key] = tensor.untyped_storage()
        _KNOWN.pop(key, None)


def learn(key: int, storage: Any, known: np.ndarray) -> None:
    """The bytes `known` (a bool per byte of `storage`) of an unset storage now hold values the
    GPU's forward holds there too: set by a torch fill of a view (`observed`), or by a launch the
    real forward ran that loaded nothing unset (evaluator.dry_ran: a flag torch.empty made that
    a one-program launch set to 1 stayed the data's, red team s69c)."""
    if key not in _UNSET:
        return
    held = _KNOWN.get(key)
    _KNOWN[key] = known.copy() if held is None else held | known


def forget(key: int, known: np.ndarray) -> None:
    """The bytes `known` of an unset storage hold what the model cannot say again (a launch run
    in the real forward that loaded something unset stored there)."""
    held = _KNOWN.get(key)
    if held is not None:
        held &= ~known


_SETTERS = frozenset({"fill_", "zero_", "copy_"})  # ops writing every element of their first argument


def observed(func, args: tuple, kwargs: dict, out, key, tensors) -> None:
    """An aten op of the real forward: what an op that leaves memory as it was makes is unset
    (FRESH_OPS), and so is what an op writes from an unset storage (noise here, what the GPU's
    allocator left there: `torch.empty(1) != 0` decided a store in the model where a fresh GPU
    block holds zeros); a fill, a zero or a copy from set values over a whole storage sets it."""
    from evaluator.aten_facts import FRESH_OPS, written

    name = func.overloadpacket.__name__
    if name in FRESH_OPS:
        for t in tensors(out):
            made_unset(key(t), t)
        return
    if not _UNSET:
        return
    reads = [t for i, t in enumerate(tensors((args, kwargs))) if not (i == 0 and name in _SETTERS)]
    noisy = any(key(t) in _UNSET for t in reads)
    try:
        targets = written(func, args, kwargs, out)
    except Exception:  # noqa: BLE001  (what it wrote unknown: everything it touched is unset)
        targets, noisy = list(tensors((args, kwargs, out))), True
    for t in targets:
        if noisy:
            made_unset(key(t), t)
        elif name in _SETTERS and t.is_contiguous() and t.storage_offset() == 0 \
                and t.numel() * t.element_size() == t.untyped_storage().nbytes():
            _UNSET.pop(key(t), None)
            _KNOWN.pop(key(t), None)
        elif name in _SETTERS and key(t) in _UNSET:  # a view of it set (`flag[0] = 1`): those bytes
            covered = view_bytes(t)
            if covered is not None:
                learn(key(t), t.untyped_storage(), covered)


MAX_VIEW_ELEMENTS = 1 << 22  # elements of a strided view a fill is placed by at most (more: not known)


def view_bytes(t: Any) -> np.ndarray | None:
    """A bool per byte of `t`'s storage: those its elements cover (None: a strided view past
    MAX_VIEW_ELEMENTS)."""
    n, size = int(t.untyped_storage().nbytes()), t.element_size()
    covered = np.zeros(n, dtype=bool)
    if t.numel() == 0:
        return covered
    if t.is_contiguous():
        first = t.storage_offset() * size
        covered[first:first + t.numel() * size] = True
        return covered
    if t.numel() > MAX_VIEW_ELEMENTS:
        return None
    index = np.array([t.storage_offset()], dtype=np.int64)
    for extent, stride in zip(t.shape, t.stride()):
        index = (index[:, None] + np.arange(extent, dtype=np.int64)[None, :] * stride).reshape(-1)
    spots = (index[:, None] * size + np.arange(size, dtype=np.int64)[None, :]).reshape(-1)
    covered[spots[(spots >= 0) & (spots < n)]] = True
    return covered


def steers(kernel: Any) -> bool:
    """Whether `kernel`'s loaded values steer its stores (dry_facts `unmasked`): only such a
    launch reads, in the model, what it loads."""
    from evaluator import dry_facts

    fn = kernel
    while fn is not None and not hasattr(fn, "arg_names"):
        fn = getattr(fn, "fn", None)
    return fn is not None and bool(dry_facts.facts(fn).unmasked)


def take(ordinal: int, kernel: Any, tensors: list, launched: dict, key) -> None:
    """Copy, for launch `ordinal`, the storages of `tensors` whose values the GPU's launch loads
    too (none in `launched` or `_UNSET`), where its kernel's loaded values steer its stores
    (dry_facts `unmasked`): only there does the model read them."""
    if not steers(kernel):
        return
    kept, seen = _SNAPSHOTS.setdefault(ordinal, []), set()
    for t in tensors:
        k = key(t)
        if k == -1 or k in launched or (k in _UNSET and k not in _KNOWN) or k in seen or t.device.type != "cpu":
            continue
        seen.add(k)
        storage = t.untyped_storage()
        n, address = int(storage.nbytes()), int(storage.data_ptr())
        if not n:
            continue
        now = np.frombuffer(ctypes.string_at(address, n), dtype=np.uint8)
        last = _LAST.get(k)
        if last is not None and last[0] == address and last[1].size == n and np.array_equal(last[1], now):
            now = last[1]  # unchanged since the last launch that was handed it: one copy
        else:
            _HELD[0] += n
            if _HELD[0] > LIMIT_BYTES:
                raise Past(f"its launches whose loaded values steer their stores were handed more than "
                           f"{LIMIT_BYTES} bytes of distinct storage contents")
            _LAST[k] = (address, now)
        part = _KNOWN.get(k) if k in _UNSET else None  # an unset storage: its known bytes alone
        kept.append((address, now, None if part is None else part.copy()))


def of(ordinal: int) -> list:
    """The copies launch `ordinal` of the last real forward reads ([] in the meta forward)."""
    return _SNAPSHOTS.get(ordinal, [])


def read(copies: list, storages: dict, ptrs: np.ndarray, lanes: np.ndarray, dtype: np.dtype) -> tuple:
    """(values, known) per lane of `ptrs` (uint64 addresses): the copied bytes where `lanes` is
    True, the address is an aligned element inside a copy, and the running launch has not stored
    that element yet (`storages`: dry_memory's, by base address, whose `current` marks say)."""
    shape = np.shape(ptrs)
    values, known = np.zeros(shape, dtype=dtype), np.zeros(shape, dtype=bool)
    size = dtype.itemsize
    flat = np.asarray(ptrs, dtype=np.uint64).reshape(-1)
    want = np.broadcast_to(lanes, shape).reshape(-1)
    for base, data, part in copies:
        offs = flat.astype(np.int64) - base
        inside = want & (offs >= 0) & (offs + size <= data.size) & (offs % size == 0)
        if inside.any() and part is not None:  # an unset storage: the elements whose bytes are known
            at = np.where(inside, offs, 0)
            inside &= np.logical_and.reduce([part[at + j] for j in range(size)])
        if not inside.any():
            continue
        index = np.where(inside, offs // size, 0)
        placed = storages.get(base)
        if placed is not None and placed.current:
            mine = placed.current.get(size)
            if mine is None or len(placed.current) > 1:  # stored at another element size: none known
                continue
            inside &= ~mine[np.minimum(index, mine.size - 1)]
        got = data[: data.size - data.size % size].view(dtype)[index]
        values.reshape(-1)[inside] = got[inside]
        known.reshape(-1)[inside] = True
    return values, known
