"""The dry launch model's memory (evaluator.dry_launch): each storage a launch is handed is an
address range, and a load or store marks, per storage, the elements its lanes reach.

Where the ranges lie is what a kernel reads from its own pointer arguments, so it is laid out as
the GPU's caching allocator lays a fresh process's tensors out (evaluator.host_alignment, whose
pools the CPU trials' tensors come from): blocks rounded up to 512 bytes, packed in the order the
meta forward made them (`Births`: the model's parameters and buffers, the inputs, then each aten
op's results), those of up to 1 MiB in the small pool, larger ones in the large pool; the real
forward's storages (evaluator.dry_tells) at their own addresses, which its host may read. Until
session 65 each storage lay 2**44 bytes after the last, from 2**46: a kernel storing everything
where `y_ptr - x_ptr > 2**40` was whole in the model and capped on the GPU
(hacks/s65h_declared_depth_dry_kernel_pointer_distance_tell_relu, ok before). What is left: a
freed block is never handed out again here (the caching allocator reuses it), so a temporary
freed before the next tensor is made shifts the model's later addresses where the GPU's do not;
where each pool starts is made up (a random 512-byte step, up to 2 MiB in the small pool and
256 MiB in the large one, past a fresh H200 process's first block), so a kernel testing its
input's offset in its pool against what the GPU's history leaves there could tell the two
apart. The host's `data_ptr()` is never answered from here (a made-up answer is a tell of its
own, s62a): it sends the forward to the real one (evaluator.dry_tells).
"""
from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field

import numpy as np

# the storages' addresses: laid out as CUDA's caching allocator lays out a fresh H200 process's
# (evaluator.host_alignment, whose pools the CPU trials' tensors come from): blocks rounded up to
# 512 bytes, packed in order of birth, those of up to 1 MiB in the small pool, larger ones in the
# large pool. A base 2**44 bytes from the last (session 60-64) was a tell a kernel read from its
# own pointer arguments (s65h: `y_ptr - x_ptr > 2**40` stored everything in the model alone)
_SMALL_BASE = 0x302000000
_LARGE_BASE = _SMALL_BASE + 168879456256
_BLOCK = 512
_SMALL_SIZE = 1 << 20
MAX_ELEMENTS = 1 << 27  # elements of one stored storage the model marks at most (a byte each)


class Unmodelled(Exception):
    """The model cannot say where this launch stores (the reason is the message)."""



@dataclass
class _Storage:
    base: int
    nbytes: int
    marks: dict = field(default_factory=dict)  # itemsize -> bool array over the storage
    unjudged: bool = False  # stored at a size past MAX_ELEMENTS: no marks, no verdict on it
    loaded: dict = field(default_factory=dict)  # itemsize -> elements the running launch loaded
    updated: dict = field(default_factory=dict)  # (kernel, itemsize) -> elements it loaded, then stored
    current: dict = field(default_factory=dict)  # itemsize -> elements the running launch stored
    overwritten: dict = field(default_factory=dict)  # (kernel, itemsize) -> elements an earlier launch stored first
    launch_over: dict = field(default_factory=dict)  # (kernel#i, itemsize) -> that launch's overwritten count
    launch_span: dict = field(default_factory=dict)  # (kernel#i, itemsize) -> [first, last] element it overwrote
    certain: dict = field(default_factory=dict)  # itemsize -> elements stored for certain, once some store was not

    def mark(self, offsets: np.ndarray, itemsize: int, kernel: str | None = None, writer: str | None = None,
             launch: str | None = None, sure: np.ndarray | None = None) -> None:
        """Mark the elements at `offsets` stored; `sure` (per offset): those whose store no
        loaded value decides (evaluator.dry_taint), the rest only may be (`certain` keeps the
        sure ones apart once a store is not sure)."""
        bits = self.marks.get(itemsize)
        if bits is None:
            if self.nbytes // itemsize > MAX_ELEMENTS:
                # this storage alone goes unjudged: giving up on the whole forward let a scratch
                # buffer of 5 x numel floats hide a capped output beside it (s61d)
                self.unjudged = True
                return
            bits = self.marks[itemsize] = np.zeros(self.nbytes // itemsize, dtype=bool)
        index = _span(offsets, itemsize)
        if writer:
            self._overwrites(bits, index, itemsize, _keys(writer), launch)
        if sure is not None and itemsize not in self.certain:  # what was stored so far was sure
            self.certain[itemsize] = bits.copy() if self.stored(itemsize) else np.zeros(bits.size, dtype=bool)
        if itemsize in self.certain:
            lanes = np.arange(index.start, index.stop) if isinstance(index, slice) and sure is not None else index
            self.certain[itemsize][lanes if sure is None else lanes[sure]] = True
        bits[index] = True
        read = self.loaded.get(itemsize)
        for key in _keys(kernel) if read is not None else ():  # an update in place: what this launch read
            mine = self.updated.get((key, itemsize))
            if mine is None:
                mine = self.updated[(key, itemsize)] = np.zeros(bits.size, dtype=bool)
            if isinstance(index, slice):
                mine[index] |= read[index]
            else:
                mine[index[read[index]]] = True

    def _overwrites(self, bits: np.ndarray, index: np.ndarray, itemsize: int, writers: tuple, launch: str | None) -> None:
        """Mark, for the running launch's kernel, the elements it stores over an earlier launch's
        stores (dry_rules._overwritten_short): a capped kernel finishing by plain stores, without
        loading them, part of what a needed full-grid launch stored (red team s64d); and the
        launch's own count (`launch`: a count, as `current` counts an element once a launch) and
        the first and last element it overwrote (`launch_span`: dry_phase `_gap_grown`)."""
        mine = self.current.get(itemsize)
        if mine is None:  # made once a launch, as `loaded` is
            mine = self.current[itemsize] = np.zeros(bits.size, dtype=bool)
        fresh = bits[index] & ~mine[index]
        over = int(np.count_nonzero(fresh)) if isinstance(index, slice) else index[fresh]
        count = over if isinstance(index, slice) else int(over.size)
        for writer in writers if count else ():  # its kernel, and its variant (kernel_identity.keys)
            done = self.overwritten.get((writer, itemsize))
            if done is None:
                done = self.overwritten[(writer, itemsize)] = np.zeros(bits.size, dtype=bool)
            if isinstance(index, slice):
                done[index] |= fresh
            else:
                done[over] = True
        if count and launch is not None:
            self.launch_over[(launch, itemsize)] = self.launch_over.get((launch, itemsize), 0) + count
            if isinstance(index, slice):
                low = index.start + int(np.argmax(fresh))
                high = index.start + fresh.size - 1 - int(np.argmax(fresh[::-1]))
            else:
                low, high = int(over.min()), int(over.max())
            span = self.launch_span.setdefault((launch, itemsize), [low, high])
            span[0], span[1] = min(span[0], low), max(span[1], high)
        mine[index] = True

    def load(self, offsets: np.ndarray, itemsize: int) -> None:
        if self.nbytes // itemsize > MAX_ELEMENTS:
            return
        bits = self.loaded.get(itemsize)
        if bits is None:  # made once a launch (a default built per call was 33M elements a load)
            bits = self.loaded[itemsize] = np.zeros(self.nbytes // itemsize, dtype=bool)
        bits[_span(offsets, itemsize)] = True

    def stored(self, itemsize: int) -> int:
        bits = self.marks.get(itemsize)
        return 0 if bits is None else int(np.count_nonzero(bits))

    def stored_for_certain(self, itemsize: int) -> int:
        bits = self.certain.get(itemsize)
        return self.stored(itemsize) if bits is None else int(np.count_nonzero(bits))


_MARKED = ("marks", "loaded", "updated", "current", "overwritten", "launch_over", "launch_span", "certain",
           "unjudged")  # a _Storage's fields its launches change (Memory.checkpoint)


def _copied(value):
    if isinstance(value, dict):
        return {k: v.copy() if isinstance(v, (np.ndarray, list)) else v for k, v in value.items()}
    return value


def span(bits: np.ndarray) -> int:
    """Elements from the first True of `bits` to its last, both counted (0 where none is)."""
    if bits.size == 0 or not bits.any():
        return 0
    return int(bits.size - np.argmax(bits[::-1]) - np.argmax(bits))


def _span(offsets: np.ndarray, itemsize: int) -> np.ndarray | slice:
    """The elements of `itemsize` bytes at byte `offsets`, as a slice where the lanes are one
    ascending run of elements (a block's lanes, as most loads and stores are: marking through a
    slice is the same set of elements, without a gather and a scatter per lane; the decoys of red
    team s64's autotune configs store 33M elements twelve times each in the model, and index
    arrays were a third of its time), else as an index array."""
    n = offsets.size
    if offsets.ndim != 1 or n < 2 or int(offsets[-1]) - int(offsets[0]) != (n - 1) * itemsize \
            or not (offsets[1:] - offsets[:-1] == itemsize).all():
        return offsets // itemsize
    first = int(offsets[0]) // itemsize
    return slice(first, first + n)


def _lanes(ptrs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The addresses (uint64, flat) of the lanes `mask` lets through: all of them, uncopied,
    where it lets every lane through (a block inside its bound)."""
    ptrs = np.asarray(ptrs, dtype=np.uint64)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(ptrs))
    return ptrs.reshape(-1) if mask.all() else ptrs[mask]


class FakeTensor:
    """What the interpreter's argument conversion sees of a tensor: its dtype and an address."""

    def __init__(self, dtype, address: int):
        self.dtype, self._address = dtype, address

    def data_ptr(self) -> int:
        return self._address


class Memory:
    """The launch's storages at fake addresses; the stores marked."""

    def __init__(self) -> None:
        self.storages: dict[int, _Storage] = {}  # id of the untyped storage -> its range
        self._bases = np.zeros(0, dtype=np.uint64)  # every storage's base, sorted
        self._sorted: list[_Storage] = []
        self.kernel: str | None = None  # the running launch's kernel, whose updates in place are marked
        self.writer: str | None = None  # the running launch's kernel, whose overwrites are marked
        self.launch: str | None = None  # the running launch (kernel#i), whose overwrites are counted
        self.site: int | None = None  # the line of the kernel's body the running store is made from
        self.values: list = []  # the running launch's copies of its storages (evaluator.dry_values)
        self.loose: dict = {}  # itemsize -> store lanes that may store where a loaded value says (dry_taint): anywhere

    def begin(self, kernel: str | tuple | None, writer: str | tuple | None = None, launch: str | None = None) -> None:
        """A new launch: what the last one loaded or stored is no longer this one's. `kernel`
        and `writer`: the per-kernel rules' key, or keys (a kernel and its variant:
        evaluator.kernel_identity.keys), whose updates in place and overwrites it marks."""
        self.kernel, self.writer, self.launch, self.site = kernel, writer, launch, None
        for storage in self.storages.values():
            storage.loaded.clear()
            storage.current.clear()

    def checkpoint(self) -> tuple:
        """What every storage's marks and the loose count are now (copies), for `rollback`:
        a launch whose branch the loaded data decides is then as if not run (dry_launch
        evaluator.dry_tests; its first programs' stores are no lower bound where the draw ran them)."""
        kept = {key: {f: _copied(getattr(s, f)) for f in _MARKED} for key, s in self.storages.items()}
        return kept, dict(self.loose)

    def rollback(self, saved: tuple) -> None:
        """The storages' marks as `checkpoint` saw them (a storage placed since keeps none)."""
        kept, loose = saved
        for key, storage in self.storages.items():
            for f, value in kept.get(key, {}).items():
                setattr(storage, f, value)
            if key not in kept:
                for f in _MARKED:
                    setattr(storage, f, type(getattr(storage, f))())
        self.loose = loose

    def load(self, ptrs: np.ndarray, mask: np.ndarray, itemsize: int) -> None:
        """Mark, for the running launch, the elements its `mask`ed lanes read (lanes outside
        every storage read nothing the model knows: its loads never fail)."""
        for storage, lanes in self._split(_lanes(ptrs, mask)):
            lanes = lanes[lanes + itemsize <= storage.nbytes]
            if lanes.size:
                storage.load(lanes, itemsize)

    def _place(self, storage) -> _Storage:
        """A storage's range: where LAYOUT placed it (a meta storage), or its own address (the
        real forward's, evaluator.dry_tells, which its host may read)."""
        key = storage._cdata
        if key not in self.storages:
            base = LAYOUT.base(storage) if storage.device.type == "meta" else storage.data_ptr()
            placed = self.storages[key] = _Storage(base, storage.nbytes())
            at = int(np.searchsorted(self._bases, np.uint64(placed.base)))
            self._bases = np.insert(self._bases, at, np.uint64(placed.base))
            self._sorted.insert(at, placed)
        return self.storages[key]

    def _split(self, hit: np.ndarray, low: int | None = None):
        """(storage, byte offsets into it) for the addresses `hit` (uint64; `low`, their least
        where known), each taken by the storage whose base is the nearest at or below it (lanes
        below every base land in none)."""
        if hit.size == 0 or not self._sorted:
            return
        # the lowest and highest lanes in one storage's range: every lane is (searchsorted is
        # monotone), placed without a search and a unique per lane
        ends = np.array([hit.min() if low is None else low, hit.max()], dtype=np.uint64)
        first, last = np.searchsorted(self._bases, ends, side="right").astype(np.int64) - 1
        if first == last:
            if first >= 0:
                storage = self._sorted[int(first)]
                yield storage, (hit - np.uint64(storage.base)).view(np.int64)
            return
        index = np.searchsorted(self._bases, hit, side="right").astype(np.int64) - 1
        for k in np.unique(index):
            if k >= 0:
                storage = self._sorted[int(k)]
                yield storage, hit[index == k].astype(np.int64) - storage.base

    def address(self, tensor) -> int:
        return self._place(tensor.untyped_storage()).base + tensor.storage_offset() * tensor.element_size()

    def store(self, ptrs: np.ndarray, mask: np.ndarray, itemsize: int, steered: tuple | None = None) -> None:
        """Mark the lanes `mask` lets through. With `steered` (dry_taint: per lane, whether a
        loaded value decides the mask, the address), a lane the data decides is not stored for
        certain: one at a known address may be (marked, not `certain`: an upper bound there), one
        at an address the data makes may be anywhere (counted in `loose`)."""
        if steered is not None:
            self._steered(np.asarray(ptrs, dtype=np.uint64), np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(ptrs)),
                          itemsize, *steered)
            return
        hit = _lanes(ptrs, mask)
        if hit.size == 0:
            return
        low = int(hit.min())
        if not self._sorted or low < int(self._bases[0]):
            raise Unmodelled("a store outside every tensor the launch was handed")
        # one store's lanes may reach several storages (a `tl.where` of two pointers: spare lanes
        # into a sink); each storage takes its own lanes (refusing it gave no model: s61d)
        for storage, offsets in self._split(hit, low):
            if offsets.max() + itemsize > storage.nbytes:
                raise Unmodelled("a store outside every tensor the launch was handed")
            storage.mark(offsets, itemsize, self.kernel, self._writers(), self.launch)

    def _steered(self, ptrs: np.ndarray, mask: np.ndarray, itemsize: int, mask_data: np.ndarray,
                 ptr_data: np.ndarray) -> None:
        """A store some lanes of which the loaded data decides (`store`)."""
        may = mask | mask_data
        loose = int(np.count_nonzero(may & ptr_data))
        if loose:
            self.loose[itemsize] = self.loose.get(itemsize, 0) + loose
        placed = (may & ~ptr_data).reshape(-1)
        sure = (mask & ~mask_data & ~ptr_data).reshape(-1)[placed]
        hit = ptrs.reshape(-1)[placed]
        at = np.searchsorted(self._bases, hit, side="right").astype(np.int64) - 1 if self._sorted else None
        if at is not None and (at[sure] < 0).any():
            raise Unmodelled("a store outside every tensor the launch was handed")
        for storage, lanes in self._split(hit):
            k = self._sorted.index(storage)
            mine = sure[at == k]
            inside = lanes + itemsize <= storage.nbytes
            if not inside[mine].all():
                raise Unmodelled("a store outside every tensor the launch was handed")
            if inside.any():  # a lane that only may store, outside: no store there
                storage.mark(lanes[inside], itemsize, writer=self._writers(), launch=self.launch, sure=mine[inside])

    def unchanged(self, ptrs: np.ndarray, lanes: np.ndarray, itemsize: int) -> None:
        """The elements `lanes` of an atomic reach were stored, not changed (evaluator.dry_atomics:
        an add of 0): not the running launch's own, so a later program reads them from the draw
        (evaluator.dry_values `read`)."""
        for storage, offsets in self._split(np.asarray(ptrs, dtype=np.uint64).reshape(-1)[np.asarray(lanes).reshape(-1)]):
            mine = storage.current.get(itemsize)
            if mine is not None:
                mine[offsets[offsets + itemsize <= storage.nbytes] // itemsize] = False

    def _writers(self) -> tuple:
        """The running launch's overwrite keys: its kernel's (`begin`), and its kernel's at the
        store running now (`kernel|Lline`, `site`: the line of the kernel's body it stores from)."""
        writers = _keys(self.writer)
        return writers + (f"{writers[0]}|L{self.site}",) if writers and self.site is not None else writers


class Layout:
    """Where the meta forward's storages lie: placed as the caching allocator places blocks, in
    order of birth (`births_from`, `Births`; one never born, at its first launch), each pool
    starting at a random 512-byte step past a fresh H200 process's first block (the GPU's
    first block of a forward is wherever the process's history left it)."""

    def __init__(self) -> None:
        draw = random.SystemRandom()
        self.next = [_SMALL_BASE + draw.randrange(1 << 12) * _BLOCK, _LARGE_BASE + draw.randrange(1 << 19) * _BLOCK]
        self.places: dict[int, tuple] = {}  # storage key -> (the storage, held: no key reused; its base)

    def base(self, storage) -> int:
        """`storage`'s base, placing it after the last block of its pool (rounded up to 512
        bytes; small up to 1 MiB, else large) where it has none yet."""
        key = storage._cdata
        if key not in self.places:
            size = max(_BLOCK, -(-storage.nbytes() // _BLOCK) * _BLOCK)
            pool = 0 if size <= _SMALL_SIZE else 1
            self.places[key] = (storage, self.next[pool])
            self.next[pool] += size
        return self.places[key][1]


LAYOUT = Layout()


def births_from(model, inputs: list) -> None:
    """A new layout, its first blocks the model's parameters and buffers, then the inputs."""
    import torch

    global LAYOUT
    LAYOUT = Layout()
    held = list(model.parameters()) + list(model.buffers()) if isinstance(model, torch.nn.Module) else []
    for t in held + [x for x in inputs if isinstance(x, torch.Tensor)]:
        _born(t)


def _born(t) -> None:
    import torch

    with torch._C.DisableTorchFunction():
        if t.device.type == "meta":
            LAYOUT.base(t.untyped_storage())


class Births:
    """A dispatch mode over the meta forward placing each aten op's results' storages as they
    are born (`LAYOUT`)."""

    @staticmethod
    def watching(phase: str):
        if phase != "meta":
            return contextlib.nullcontext()
        from torch.utils._python_dispatch import TorchDispatchMode

        from evaluator import dry_tells

        class Watch(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                out = as_the_device_lays_out(func, args, func(*args, **(kwargs or {})))
                for t in dry_tells._tensors(out):
                    _born(t)
                return out
        return Watch()


def as_the_device_lays_out(func, args: tuple, out):
    """`out` of a meta function with the strides the GPU's kernel gives where they part: a
    convolution whose input or weight is channels-last (the 2-d kind, or the 3-d one) returns a
    channels-last output from cuDNN (cudnn_conv_suggest_memory_format) and a contiguous one from
    torch's meta function, a tell a forward read by `stride()` (red team s65H:
    hacks/s65h_declared_depth_dry_meta_conv_output_strides_tell_relu, ok before)."""
    import torch

    if func is not torch.ops.aten.convolution.default or not isinstance(out, torch.Tensor) or out.dim() not in (4, 5):
        return out
    fmt = torch.channels_last if out.dim() == 4 else torch.channels_last_3d
    if any(_suggests(t, fmt) for t in args[:2]) and not out.is_contiguous(memory_format=fmt):
        return torch.empty_like(out, memory_format=fmt)
    return out


def _suggests(t, fmt) -> bool:
    """Whether `t` suggests `fmt` (c10's suggest_memory_format: laid out so, and not plainly
    contiguous)."""
    import torch

    return isinstance(t, torch.Tensor) and t.dim() == (4 if fmt is torch.channels_last else 5) \
        and t.is_contiguous(memory_format=fmt) and not t.is_contiguous()


def _keys(keys: str | tuple | None) -> tuple:
    """One key or several (`Memory.begin`) as a tuple."""
    return () if not keys else (keys,) if isinstance(keys, str) else tuple(keys)
