"""Tensor descriptors (TMA) on the CPU: the rules the H200 holds a descriptor's global shape and
strides to, which the interpreter's TensorDescHandle.validate leaves out.

A host `TensorDescriptor` is encoded by the launcher with cuTensorMapEncodeTiled, whose
globalDim and globalStrides are unsigned (cuuint64_t): a dimension must be in [1, 2**32], a
byte stride (every dimension but the last) a multiple of 16 below 2**40 (a zero
stride is let through: whether the driver takes it is unmeasured); anything else is
CUDA_ERROR_INVALID_VALUE and the launch fails. A device-side `tl.make_tensor_descriptor` writes
the same fields into a tensormap in global memory (`tensormap.replace`), where a value outside
those ranges is undefined. The interpreter checks only 16-byte multiples in Python's modulo,
which a negative stride passes: a descriptor over `x[M - 1:]` with strides `[-N, 1]` read x's
rows backwards on the CPU, a ReLU written through two such descriptors was correct there and
fails its launch on the GPU (red team rt62, hacks/rt62_descriptor_negative_stride_*). Shapes are
int32 in Triton 3.6 (`make_tensor_descriptor` makes each an i32 scalar; the launcher passes
them as i32), so a dimension is held to [1, 2**31).

A descriptor's reduction store (`desc.atomic_add/atomic_min/atomic_max/...`: Triton 3.x's
DescriptorReduceOp, the H200's cp.reduce.async.bulk.tensor) had no InterpreterBuilder method:
split-K written with `c_desc.atomic_add` was a runtime error on the CPU only (honest round s56d,
honest/s56d_10_*). It runs here as what it is elementwise: a relaxed, GPU-scope atomic RMW of
each in-bounds element of the tile (the box's out-of-bounds part dropped, as the TMA unit drops
it), through the builder's own create_atomic_rmw, so the memory guard, the race detector and
the atomic-order rules see it as any other atomic.

A descriptor's padding="nan" fills out-of-bounds elements with a NaN of the element type, as TMA
does (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA). The interpreter filled numpy's NaN cast
to the stand-in dtype: bfloat16, held as uint16, got 0, so `pad == pad` told the CPU from the GPU
and a ReLU run only where it held was ok at 1.003 on the CPU alone (lead, session 63,
hacks/s63_bf16_nan_pad_tell_relu). Which NaN TMA writes is not documented,
and a kernel can bit-test it (red team rt62, hacks/rt62_descriptor_nan_fill_bits_switch_relu).
Measured on an H100 in session 65 (scripts/device/probe_tma_fill.py): TMA fills 0x7FF7 in every
16 bits (fp16 and bf16 0x7FF7, fp32 0x7FF77FF7), so those rows hold the one measured value and a
kernel bit-testing the fill sees the GPU's bits on the CPU too. A type not measured (fp64) keeps
a row of plausible encodings (that pattern, the quiet NaN APFloat and numpy make, the all-ones
payload), one drawn per candidate child (`fill_bits`: keyed_draw, one draw for every type, as one
hardware fill rule would be): a kernel switching on those bits is wrong in the children whose
draw is not the one it bet on, whichever the GPU's is.
Installed by evaluator.interpreter_guard."""
from __future__ import annotations

import functools

import numpy as np

from evaluator import keyed_draw

STRIDE_LIMIT = 2**40  # cuTensorMapEncodeTiled: globalStrides[i] < 2**40, a multiple of 16
SHAPE_LIMIT = 2**31  # Triton 3.6: shapes are i32
# padding="nan": the out-of-bounds NaN bits per element type, as data. Measured on an H100 (sm_90,
# triton 3.6; sessions 65 and 67, scripts/device/probe_tma_fill.py): TMA writes 0x7FF7 in every 16
# bits, so one value for fp16, bf16, fp32 and fp64. A row of several values (a type not measured)
# is drawn one per child (`fill_bits`)
NAN_FILL = {
    "fp16": (0x7FF7,),
    "bf16": (0x7FF7,),
    "fp32": (0x7FF77FF7,),
    "fp64": (0x7FF77FF77FF77FF7,),
}


class DescriptorError(ValueError):
    """A tensor descriptor the H200 cannot encode."""


def check(shape: list[int], strides: list[int], itemsize: int) -> None:
    """Raise where a descriptor of this global shape and element strides is no valid tensormap."""
    for i, dim in enumerate(shape):
        if not 1 <= dim < SHAPE_LIMIT:
            raise DescriptorError(
                f"tensor descriptor dimension {i} is {dim}: on the GPU a descriptor's shape is an int32 "
                "the tensormap holds unsigned, at least 1 (cuTensorMapEncodeTiled refuses it; a "
                "device-side tensormap holding it is undefined)")
    for i, stride in enumerate(strides[:-1]):
        nbytes = stride * itemsize
        if not 0 <= nbytes < STRIDE_LIMIT or nbytes % 16:
            raise DescriptorError(
                f"tensor descriptor stride {i} is {stride} elements ({nbytes} bytes): a TMA descriptor's "
                "strides are unsigned byte counts, multiples of 16 below 2**40, so a negative or huge "
                "stride is refused by cuTensorMapEncodeTiled (the launch fails) or undefined in a "
                "device-side tensormap")


def install(interpreter) -> None:
    """Wrap TensorDescHandle.validate (both host and device-side descriptors pass it) and the
    builder's descriptor load (its NaN fill); add the descriptor reduction store where the builder
    lacks it."""
    _descriptor_reduce(interpreter.InterpreterBuilder)
    _nan_fill(interpreter)
    handle = getattr(interpreter, "TensorDescHandle", None)
    validate = getattr(handle, "validate", None)
    if validate is None or getattr(validate, "_krl_tma", False):
        return

    @functools.wraps(validate)
    def checked(self):
        validate(self)
        itemsize = self.base.dtype.element_ty.primitive_bitwidth // 8
        check([int(s.data.item()) for s in self.shape], [int(s.data.item()) for s in self.strides], itemsize)

    checked._krl_tma = True  # type: ignore[attr-defined]
    handle.validate = checked


def _descriptor_reduce(builder_type: type) -> None:
    """create_descriptor_reduce as per-element relaxed atomics (see the module doc)."""
    if hasattr(builder_type, "create_descriptor_reduce"):
        return
    from triton._C.libtriton import ir

    kinds, ops = ir.DESCRIPTOR_REDUCE_KIND, ir.ATOMIC_OP

    def create_descriptor_reduce(self, kind, desc, value, indices):
        ptrs, mask = desc.materialize_pointers(indices)
        dtype = desc.base.dtype.element_ty
        unsigned = dtype.is_int_unsigned()
        op = {kinds.ADD: ops.FADD if dtype.is_floating() else ops.ADD,
              kinds.MIN: ops.UMIN if unsigned else ops.MIN, kinds.MAX: ops.UMAX if unsigned else ops.MAX,
              kinds.AND: ops.AND, kinds.OR: ops.OR, kinds.XOR: ops.XOR}.get(kind)
        if op is None:  # INC/DEC: wrapping increments, no tl.atomic_* counterpart to run them as
            raise NotImplementedError(f"descriptor reduction {kind} is not run by the CPU interpreter")
        self.create_atomic_rmw(op, ptrs, value, mask, ir.MEM_SEMANTIC.RELAXED, ir.MEM_SYNC_SCOPE.GPU)

    builder_type.create_descriptor_reduce = create_descriptor_reduce


def fill_bits(type_name: str) -> int | None:
    """This child's out-of-bounds NaN for a float element type (Triton's name: fp32, bf16, ...);
    None for a type NAN_FILL does not hold."""
    row = NAN_FILL.get(type_name)
    if row is None:
        return None
    return keyed_draw.pick("tma nan fill", row)


def _nan_fill(interpreter) -> None:
    """create_descriptor_load with padding="nan": the loaded tile, each out-of-bounds element
    replaced by this child's fill (`fill_bits`) in the element type's own bits (see the module
    doc). The gather runs through it too (the builder's gather calls create_descriptor_load)."""
    builder_type = interpreter.InterpreterBuilder
    load = builder_type.create_descriptor_load
    if getattr(load, "_krl_tma", False):
        return
    from triton._C.libtriton import ir

    @functools.wraps(load)
    def filled(self, desc, indices, cache_policy):
        tile = load(self, desc, indices, cache_policy)
        if desc.padding != ir.PADDING_OPTION.PAD_NAN:
            return tile
        bits = fill_bits(desc.base.dtype.element_ty.name)
        if bits is None:
            return tile
        _, inside = desc.materialize_pointers(indices)
        fill = np.array(bits, dtype=np.dtype(f"uint{tile.data.dtype.itemsize * 8}")).view(tile.data.dtype)
        return interpreter.TensorHandle(np.where(inside.data, tile.data, fill), tile.dtype)

    filled._krl_tma = True  # type: ignore[attr-defined]
    builder_type.create_descriptor_load = filled
