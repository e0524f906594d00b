"""evaluator.interpreter_dtypes: the interpreter's NumPy dtype per Triton dtype and a block type's
checks and name, remembered, answer exactly as Triton's own (the same dtype, the same shape,
count and name, the same refusals), and share nothing mutable between two block types."""
from __future__ import annotations

import pytest
import triton.language as tl
import triton.language.core as core
from triton.runtime import interpreter

from evaluator import interpreter_casts, interpreter_dtypes

DTYPES = [tl.float32, tl.float16, tl.bfloat16, tl.int1, tl.int8, tl.uint32, tl.int64, tl.float8e4nv,
          tl.pointer_type(tl.float16), tl.block_type(tl.bfloat16, [4, 8]), tl.block_type(tl.int32, [16]),
          tl.block_type(tl.pointer_type(tl.int8), [2, 2])]
SHAPES = [(tl.float32, [1024]), (tl.int32, [2, 4]), (tl.pointer_type(tl.float16), [16, 1]), (tl.int1, [1]),
          (tl.float16, core.tuple([4, 8])), (tl.float32, [core.constexpr(8)]), (tl.float32, [True])]


@pytest.fixture
def remembered():
    """Both installed for the test (as the zygote installs them), Triton's own restored after."""
    lookup, init = interpreter._get_np_dtype, core.block_type.__init__
    interpreter_dtypes.install(interpreter)
    interpreter_dtypes.block_types_remembered()
    try:
        yield interpreter._get_np_dtype.original, core.block_type.__init__.original
    finally:
        interpreter._get_np_dtype, core.block_type.__init__ = lookup, init


def _made(element, shape) -> tuple:
    made = tl.block_type(element, shape)
    return type(made.shape), list(made.shape.values), made.shape.type.types, made.numel, made.name


def test_the_numpy_dtype_is_tritons_own(remembered):
    lookup, _ = remembered
    for _ in range(2):  # the second time from the table
        assert [interpreter._get_np_dtype(d) for d in DTYPES] == [lookup(d) for d in DTYPES]
    with pytest.raises(KeyError):
        interpreter._get_np_dtype(tl.void)


def test_a_block_type_is_made_as_tritons_own(remembered):
    _, init = remembered
    mine, core.block_type.__init__ = core.block_type.__init__, init
    want = [_made(e, s) for e, s in SHAPES]
    core.block_type.__init__ = mine
    for _ in range(2):  # the second time remembered
        assert [_made(e, s) for e, s in SHAPES] == want
    a, b = tl.block_type(tl.int32, [2, 4]), tl.block_type(tl.int32, [2, 4])
    assert a == b and a.shape is not b.shape and a.shape.values is not b.shape.values
    assert a.shape.type is not b.shape.type


@pytest.mark.parametrize("shape,error", [([3], ValueError), ([], TypeError), ([1 << 21], ValueError),
                                         ((2, 4), AssertionError)])
def test_a_shape_triton_refuses_is_refused_every_time(remembered, shape, error):
    for _ in range(2):
        with pytest.raises(error):
            tl.block_type(tl.float32, shape)
    tl.block_type(tl.float32, [2, 4])
    with pytest.raises(AssertionError):  # Python's tuple, after a list of the same ints was remembered
        tl.block_type(tl.float32, (2, 4))


def test_bf16_is_told_as_before():
    for d in [*DTYPES, tl.block_type(tl.bfloat16, [2]), tl.pointer_type(tl.bfloat16), None, 3]:
        assert interpreter_casts._is_bf16(d) == (getattr(d, "scalar", d) == tl.bfloat16), d
