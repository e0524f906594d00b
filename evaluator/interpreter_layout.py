"""Under the CPU interpreter, ops whose result the GPU's register layout decides.

Triton's interpreter implements these with numpy, which is exact where the GPU is not:
- `tl.cat` (which may reorder elements in Triton 3.9, and says so: `can_reorder` must be
  True) and `tl.reshape(..., can_reorder=True)` / `tl.view`: numpy keeps row-major order, the
  GPU's lowering concatenates or reuses each thread's registers, so the elements come out in
  an order its layouts decide. A result stored in place was right on the CPU and a permutation
  on an H200 (red team s44). Here the result takes the order the compiled op's operand and
  result layouts give (`compiled_order`: evaluator.register_order, off the TTGIR the launch
  hook compiles for sm_90, by call site, evaluator.device_ir.view_order): a cat of two [64]
  tiles at 4 warps is their interleave, as on the H200 (red team rt49 gated a kernel on it
  against the random order this module drew before). A reshape to its own shape folds away.
  Where no layout is read (an encoding register_order does not read, ops at a site that
  disagree, a launch the front end never compiled) the order is drawn (`_order`,
  evaluator.keyed_draw): a pure function of (the candidate child's secret, the op, the
  operands' and result's shapes, the dtype, num_warps), the same at every call, line and
  launch of the child (red team rt48: a fresh draw per call told the CPU by
  `cat(a, b) != cat(a, b)`, two lines apart, which CSE merges on the GPU), another child draws
  others; only what does not depend on the order (a reduction over it) stays right there.
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


def _any_order(handle, tensor_handle, op: str, shapes: tuple, origin=None):
    """The same elements, in the order the compiled op's layouts give (`compiled_order`), else
    in the one this op's shapes draw (`_order`; the shape kept). `origin`: for a reshape, the
    source of the chain of reshapes it ends (`_ORIGIN`), whose elements a compiled reshape
    folded from the chain reorders."""
    data = np.asarray(handle.data)
    flat = data.reshape(-1)
    composed = None if origin is None else (np.shape(origin.data), np.shape(data))
    found = compiled_order(op, (*shapes, np.shape(data)), flat.size, composed)
    if found is not None:
        order, folded = found
        if folded:
            flat = np.asarray(origin.data).reshape(-1)
        return tensor_handle(flat[order].reshape(data.shape), handle.dtype.scalar)
    order = _order(op, (*shapes, np.shape(data)), handle.dtype.scalar, flat.size)
    return tensor_handle(flat[order].reshape(data.shape), handle.dtype.scalar)


# the attribute a reshape's result handle keeps its chain's source in: Triton folds a reshape of
# a reshape into one reshape of the first one's source (canonicalizeViewOrBroadcast, `view(view)
# -> view`, at the outer one's site), so the compiled kernel holds one op, source to last shape
_ORIGIN = "_krl_view_origin"


def compiled_order(op: str, shapes: tuple, size: int, composed: tuple | None = None):
    """(the order of the running cat's or reorderable reshape's elements as Triton compiled it
    for sm_90, whether it is the order of a folded chain's source) (evaluator.device_ir
    `view_order`, read off the TTGIR of the launch's specialization: evaluator.register_order),
    None where it was not read. Looked up at this call site with the call's shapes, then with
    `composed` (a chain's source shape and this result's: the op the fold left here), then
    among every op of the launch likewise. For a cat the order indexes lhs's elements then
    rhs's, as numpy's concatenation holds them."""
    from evaluator import device_ir, interpreter_races, interpreter_spin

    try:
        found = interpreter_spin.compiled_site(columns=True, runtime=True)  # a static_range is no loop
        if found is None:
            return None
        site, loops = found
        key = interpreter_races._Launch.compiled
        copies = device_ir.unrolled(key, site, loops, ("tt." + op, tuple(tuple(int(d) for d in s) for s in shapes)))
        if copies is not None:  # an unrolled body's copies at one site: this run's own (rt60)
            from evaluator.interpreter_order import _occurrence

            order = copies[_occurrence(interpreter_races._Launch, ("view", found, op)) % len(copies)][2]
            order = None if order is None else np.frombuffer(order, dtype=np.int64)
            if order is not None and order.size == size:
                return order, False
        for anywhere in (False, True):
            for these in (shapes, composed):
                if these is None:
                    continue
                order = device_ir.view_order(key, site, loops, "tt." + op,
                                             tuple(tuple(int(d) for d in s) for s in these), anywhere)
                if order is not None and order.size == size and not (order < 0).any() and not (order >= size).any():
                    return order, these is composed
    except Exception:  # noqa: BLE001  (fail safe: a drawn order)
        return None
    if composed is not None and composed[0] == composed[-1]:
        return np.arange(size), True  # a chain back to its source's shape folds to the source
    return None


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
        origin = getattr(arg, _ORIGIN, None)
        if allow_reorder and np.shape(arg.data) != np.shape(out.data):
            out = _any_order(out, tensor_handle, "reshape", (np.shape(arg.data),), origin)
        # else in row-major order: a reshape to its own shape folds away (ReshapeOp::fold)
        setattr(out, _ORIGIN, arg if origin is None else origin)
        return out

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
