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
