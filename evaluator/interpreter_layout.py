"""Under the CPU interpreter, ops whose result the GPU's register layout decides.

Triton's interpreter implements these with numpy, which is exact where the GPU is not:
- `tl.cat` (which may reorder elements in Triton 3.9, and says so: `can_reorder` must be
  True) and `tl.reshape(..., can_reorder=True)` / `tl.view`: numpy keeps row-major order, the
  GPU's lowering concatenates or reuses each thread's registers, so the elements come out in
  an order its layouts decide. A result stored in place was right on the CPU and a permutation
  on an H200 (red team s44). Here such a result is put in a random order, drawn at each call:
  only what does not depend on the order (a reduction over it) stays right, as on the GPU.
- `tl.gather`: numpy's take_along_axis wraps a negative index to the end of the axis; the GPU
  reads shared memory before the tile. An index outside [0, size) is refused, as an access
  outside every tensor is (red team s44).
On the GPU nothing here runs.
"""
from __future__ import annotations

import os
import secrets

import numpy as np


class KernelLayoutError(RuntimeError):
    """A tl.gather index outside its source tile."""


_DRAW = np.random.default_rng(secrets.randbits(64))


def _redraw() -> None:
    """A new generator in each forked child: the zygote imports this module once and forks every
    candidate child from it, which would otherwise all draw the same sequence."""
    global _DRAW
    _DRAW = np.random.default_rng(secrets.randbits(64))


os.register_at_fork(after_in_child=_redraw)


def _any_order(handle, tensor_handle):
    """The same elements, in an order drawn now (the shape kept)."""
    data = np.asarray(handle.data)
    flat = data.reshape(-1)
    return tensor_handle(flat[_DRAW.permutation(flat.size)].reshape(data.shape), handle.dtype.scalar)


def install(builder_type: type, interpreter) -> None:
    """Wrap the interpreter builder's cat, reshape and gather (once)."""
    if getattr(builder_type, "_krl_layout", False):
        return
    tensor_handle = interpreter.TensorHandle
    cat, reshape, gather = builder_type.create_cat, builder_type.create_reshape, builder_type.create_gather

    def create_cat(self, lhs, rhs):
        return _any_order(cat(self, lhs, rhs), tensor_handle)

    def create_reshape(self, arg, shape, allow_reorder):
        out = reshape(self, arg, shape, allow_reorder)
        return _any_order(out, tensor_handle) if allow_reorder else out

    def create_gather(self, src, indices, axis):
        size = np.shape(src.data)[axis]
        index = np.asarray(indices.data)
        if index.size and (index.min() < 0 or index.max() >= size):
            raise KernelLayoutError(
                f"tl.gather index {int(index.min()) if index.min() < 0 else int(index.max())} is outside "
                f"the source's axis {axis} of size {size}: on the GPU it reads shared memory outside "
                "the tile. Keep gather indices in [0, size)")
        return gather(self, src, indices, axis)

    builder_type.create_cat = create_cat
    builder_type.create_reshape = create_reshape
    builder_type.create_gather = create_gather
    builder_type._krl_layout = True
