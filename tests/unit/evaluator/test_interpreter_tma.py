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
