"""evaluator.interpreter_tma: a tensor descriptor's shape and strides held to what the H200's
tensormap takes (red team rt62)."""
import numpy as np
import pytest

from evaluator import interpreter_tma


@pytest.mark.parametrize("shape,strides,itemsize", [
    ([4096, 8192], [8192, 1], 4),
    ([64, 32, 16], [512, 16, 1], 2),
    ([256], [1], 4),
    ([8, 16], [0, 1], 4),  # a zero stride is let through (unmeasured)
])
def test_valid_descriptors_pass(shape, strides, itemsize):
    interpreter_tma.check(shape, strides, itemsize)


@pytest.mark.parametrize("shape,strides,itemsize", [
    ([4096, 8192], [-8192, 1], 4),  # rt62: rows read backwards
    ([4096, 8192], [2**38, 1], 4),  # 2**40 bytes
    ([0, 16], [16, 1], 4),
    ([-4, 16], [16, 1], 4),
    ([2**31, 16], [16, 1], 4),
    ([16, 16], [3, 1], 2),  # not a multiple of 16 bytes
])
def test_invalid_descriptors_refused(shape, strides, itemsize):
    with pytest.raises(interpreter_tma.DescriptorError):
        interpreter_tma.check(shape, strides, itemsize)


def test_installed_on_the_interpreter_handle():
    pytest.importorskip("triton")
    from triton.runtime import interpreter

    from evaluator import interpreter_guard

    if not interpreter_guard.install():
        pytest.skip("no interpreter")
    import triton.language as tl

    base = interpreter.TensorHandle(np.array([4096], dtype=np.uint64), tl.pointer_type(tl.float32))

    def scalar(v):
        return interpreter.TensorHandle(np.array([v], dtype=np.int64), tl.int64)

    good = interpreter.TensorDescHandle(base, [scalar(8), scalar(16)], [scalar(16), scalar(1)], [8, 16], None)
    good.validate()
    bad = interpreter.TensorDescHandle(base, [scalar(8), scalar(16)], [scalar(-16), scalar(1)], [8, 16], None)
    with pytest.raises(interpreter_tma.DescriptorError):
        bad.validate()


def test_descriptor_reduction_store_runs_as_relaxed_atomics():
    """desc.atomic_add (DescriptorReduceOp) is the builder's own atomic RMW of each in-bounds
    element, relaxed and GPU-scope (honest round s56d: split-K through c_desc.atomic_add was a
    runtime error on the CPU only; honest/s56d_10_* runs it end to end)."""
    pytest.importorskip("triton")
    import triton.language as tl
    from triton._C.libtriton import ir

    calls = []

    class Builder:
        def create_atomic_rmw(self, op, ptrs, value, mask, sem, scope):
            calls.append((op, ptrs, value, mask, sem, scope))

    class Desc:
        class base:  # noqa: N801  (stands in for the descriptor's base pointer handle)
            dtype = tl.pointer_type(tl.float32)

        def materialize_pointers(self, indices):
            return "ptrs", "mask"

    interpreter_tma._descriptor_reduce(Builder)
    Builder().create_descriptor_reduce(ir.DESCRIPTOR_REDUCE_KIND.ADD, Desc(), "value", [0, 0])
    assert calls == [(ir.ATOMIC_OP.FADD, "ptrs", "value", "mask", ir.MEM_SEMANTIC.RELAXED, ir.MEM_SYNC_SCOPE.GPU)]
    with pytest.raises(NotImplementedError):
        Builder().create_descriptor_reduce(ir.DESCRIPTOR_REDUCE_KIND.INC, Desc(), "value", [0, 0])


@pytest.mark.parametrize("secret", [1, 2, 3])
def test_descriptor_nan_padding_fills_a_real_nan_of_the_child_draw(secret):
    """padding="nan" fills each out-of-bounds element with this child's NaN of the element type
    (lead, session 63: bfloat16 was filled with 0, `pad == pad` told the CPU): the H100's
    measured bits for fp16, bf16, fp32 and fp64 in every child, whatever its secret (a kernel
    bit-testing the fill, rt62, gets the GPU's answer); in-bounds elements and padding="zero" loads are left as loaded."""
    pytest.importorskip("triton")
    import triton.language as tl
    from triton._C.libtriton import ir

    from evaluator import keyed_draw

    class Handle:
        def __init__(self, data, dtype):
            self.data, self.dtype = data, dtype

    inside = np.array([True, True, False, False])

    class Builder:
        def create_descriptor_load(self, desc, indices, cache_policy):
            return Handle(np.zeros(4, dtype=desc.stand_in), desc.base.dtype.element_ty)

    class Desc:
        def __init__(self, dtype, stand_in, padding):
            self.base = Handle(None, tl.pointer_type(dtype))
            self.stand_in, self.padding = stand_in, padding

        def materialize_pointers(self, indices):
            return None, Handle(inside, tl.int1)

    namespace = type("Interp", (), {"InterpreterBuilder": Builder, "TensorHandle": Handle})
    interpreter_tma._nan_fill(namespace)
    saved = keyed_draw._SECRET[0]
    try:
        keyed_draw._SECRET[0] = secret
        for dtype, stand_in in [(tl.float32, np.float32), (tl.float16, np.float16),
                                (tl.bfloat16, np.uint16), (tl.float64, np.float64)]:
            row = interpreter_tma.NAN_FILL[dtype.name]
            (want,) = row
            got = Builder().create_descriptor_load(Desc(dtype, stand_in, ir.PADDING_OPTION.PAD_NAN), [0], None)
            raw = got.data.view(f"uint{8 * got.data.dtype.itemsize}")
            assert raw.tolist() == [0, 0, want, want], dtype
            zero = Builder().create_descriptor_load(Desc(dtype, stand_in, ir.PADDING_OPTION.PAD_ZERO), [0], None)
            assert not zero.data.any()
    finally:
        keyed_draw._SECRET[0] = saved


def test_nan_fill_holds_the_bits_tma_wrote_on_an_h100():
    """scripts/device/probe_tma_fill.py on an H100 (sessions 65 and 67): TMA's out-of-bounds NaN is
    0x7FF7 in every 16 bits; a child drawing anything else there is told from the GPU."""
    assert interpreter_tma.NAN_FILL["fp16"] == (0x7FF7,)
    assert interpreter_tma.NAN_FILL["bf16"] == (0x7FF7,)
    assert interpreter_tma.NAN_FILL["fp32"] == (0x7FF77FF7,)
    assert interpreter_tma.NAN_FILL["fp64"] == (0x7FF77FF77FF77FF7,)


def test_nan_fill_rows_are_nans_of_their_type():
    """Every NAN_FILL encoding is a NaN of its type (bfloat16 read as float32's top half)."""
    widths = {"fp16": np.float16, "fp32": np.float32, "fp64": np.float64}
    for name, row in interpreter_tma.NAN_FILL.items():
        for bits in row:
            if name == "bf16":
                assert np.isnan(np.array(bits << 16, dtype=np.uint32).view(np.float32))
            else:
                kind = widths[name]
                raw = np.array(bits, dtype=np.dtype(f"uint{8 * np.dtype(kind).itemsize}"))
                assert np.isnan(raw.view(kind))
