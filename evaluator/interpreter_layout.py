"""Under the CPU interpreter, ops whose result the GPU's register layout decides.

Triton's interpreter implements these with numpy, which is exact where the GPU is not:
- `tl.cat` (which may reorder elements in Triton 3.9, and says so: `can_reorder` must be
  True) and `tl.reshape(..., can_reorder=True)` / `tl.view`: numpy keeps row-major order, the
  GPU's lowering concatenates or reuses each thread's registers, so the elements come out in
  an order its layouts decide. A result stored in place was right on the CPU and a permutation
  on an H200 (red team s44). Here such a result is put in a random order: only what does not
  depend on the order (a reduction over it) stays right, as on the GPU.
  The order's rule (`_order`, evaluator.keyed_draw): a compiled op's order is fixed by the
  layouts of its operands and result, which the shapes, the dtype and the launch's num_warps
  decide for a kernel's default layouts; two identical ops are one after the GPU's CSE. So the
  permutation is a pure function of (the candidate child's secret, the op, the operands' and
  result's shapes, the dtype, num_warps): the same at every call, line and launch of the child
  (red team rt48: a fresh draw per call told the CPU by `cat(a, b) != cat(a, b)`, two lines
  apart, which CSE merges on the GPU), another child draws others. Not the source line: two
  lines' cats of one shape agree on the GPU unless their operands' layouts differ, and keying
  by line made them differ on the CPU (the same detector, two lines apart). Open: two ops of
  one shape whose operands the GPU lays out differently (one anchored by a load, one not) may
  differ there and always agree here; only the TTGIR's layouts would close that.
- `tl.gather`: numpy's take_along_axis wraps a negative index to the end of the axis; the GPU
  reads shared memory before the tile. An index outside [0, size) is refused, as an access
  outside every tensor is (red team s44).
- `tl.histogram`: the interpreter drops a value outside [0, bins) (np.histogram over that
  range). The sm_90 lowering (HistogramOpToLLVM) bins each value by its low log2(max(bins, 32))
  bits through warp ballots and never tests the range: with 64 bins, 64..127 land in bins
  0..63, -1 in bin 63; under 32 bins the padding to 32 drops 4..31 and wraps 32.. back in.
  So `histogram(arange(64) + 64, 64)` was all zeros on the CPU and all ones on an H200 (red
  team rt50: a flag on the empty histogram ran the honest ReLU on the CPU only). An unmasked
  value outside [0, bins) is refused, as a gather index outside the tile is; mask it off
  (`mask=`), which both count alike.
On the GPU nothing here runs.
"""
from __future__ import annotations

import re

import numpy as np

from evaluator import keyed_draw


class KernelLayoutError(RuntimeError):
    """A tl.gather index outside its source tile, or an unmasked tl.histogram value outside its bins."""


_ORDERS: dict = {}  # (secret's seed of the key) -> permutation, for this process
_KEPT = 4096


def _order(op: str, shapes: tuple, dtype, size: int) -> np.ndarray:
    """The permutation of `size` elements for this op (the module doc's rule)."""
    key = keyed_draw.seed("layout", op, shapes, str(dtype), _num_warps())
    held = _ORDERS.get(key)
    if held is None:
        held = np.random.default_rng(key).permutation(size)
        if len(_ORDERS) < _KEPT:
            _ORDERS[key] = held
    return held


def _num_warps() -> int | None:
    """The running launch's num_warps, from the specialization the GPU front end checked."""
    from evaluator import interpreter_races

    compiled = interpreter_races._Launch.compiled
    found = re.search(r"\('num_warps', (\d+)\)", compiled[4]) if compiled and len(compiled) > 4 else None
    return int(found.group(1)) if found else None


def _any_order(handle, tensor_handle, op: str, shapes: tuple):
    """The same elements, in the order this op's shapes draw (`_order`; the shape kept)."""
    data = np.asarray(handle.data)
    flat = data.reshape(-1)
    order = _order(op, (*shapes, np.shape(data)), handle.dtype.scalar, flat.size)
    return tensor_handle(flat[order].reshape(data.shape), handle.dtype.scalar)


def install(builder_type: type, interpreter) -> None:
    """Wrap the interpreter builder's cat, reshape, gather and histogram (once)."""
    if getattr(builder_type, "_krl_layout", False):
        return
    tensor_handle = interpreter.TensorHandle
    cat, reshape, gather = builder_type.create_cat, builder_type.create_reshape, builder_type.create_gather
    histogram = builder_type.create_histogram

    def create_cat(self, lhs, rhs):
        return _any_order(cat(self, lhs, rhs), tensor_handle, "cat", (np.shape(lhs.data), np.shape(rhs.data)))

    def create_reshape(self, arg, shape, allow_reorder):
        out = reshape(self, arg, shape, allow_reorder)
        return _any_order(out, tensor_handle, "reshape", (np.shape(arg.data),)) if allow_reorder else out

    def create_gather(self, src, indices, axis):
        size = np.shape(src.data)[axis]
        index = np.asarray(indices.data)
        if index.size and (index.min() < 0 or index.max() >= size):
            raise KernelLayoutError(
                f"tl.gather index {int(index.min()) if index.min() < 0 else int(index.max())} is outside "
                f"the source's axis {axis} of size {size}: on the GPU it reads shared memory outside "
                "the tile. Keep gather indices in [0, size)")
        return gather(self, src, indices, axis)

    def create_histogram(self, data, bins, mask):
        values = np.asarray(data.data)
        counted = np.ones(values.shape, dtype=bool) if mask is None else np.asarray(mask.data, dtype=bool)
        outside = counted & ((values < 0) | (values >= bins))
        if outside.any():
            bad = values[outside].reshape(-1)[0]
            raise KernelLayoutError(
                f"tl.histogram value {int(bad)} is outside its {bins} bins: the GPU's lowering bins "
                "every value by its low bits and never drops one out of range (on the CPU it was "
                "dropped). Mask such values off with tl.histogram(x, bins, mask=...)")
        return histogram(self, data, bins, mask)

    builder_type.create_cat = create_cat
    builder_type.create_reshape = create_reshape
    builder_type.create_gather = create_gather
    builder_type.create_histogram = create_histogram
    builder_type._krl_layout = True
