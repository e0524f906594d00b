"""Integer division and remainder by a zero divisor under the CPU interpreter
(evaluator.interpreter_idiv): numpy's 0 was a CPU-only answer a kernel could gate its work on
(red team s65e)."""
from __future__ import annotations

import numpy as np
import pytest

from evaluator import interpreter_idiv, keyed_draw


class _Handle:
    def __init__(self, data, dtype):
        self.data, self.dtype = np.asarray(data), dtype


class _Builder:
    """The interpreter builder's numpy division (Triton's create_idiv and its fmod remainders)."""

    def create_idiv(self, lhs, rhs):
        with np.errstate(divide="ignore", invalid="ignore"):
            return _Handle((lhs.data - np.fmod(lhs.data, rhs.data)) // rhs.data, lhs.dtype)

    def create_srem(self, lhs, rhs):
        with np.errstate(divide="ignore", invalid="ignore"):
            return _Handle(np.fmod(lhs.data, rhs.data), lhs.dtype)

    create_urem = create_srem


def _secret_drawing(column: int) -> int:
    for candidate in range(1, 400):
        keyed_draw._SECRET[0] = candidate
        if keyed_draw.seed("integer division by zero") % len(interpreter_idiv.ZERO_DIVISOR) == column:
            return candidate
    raise AssertionError("no secret draws this column")


@pytest.fixture()
def builder():
    class Patched(_Builder):
        pass

    interpreter_idiv.install(Patched)
    saved = keyed_draw._SECRET[0]
    yield Patched()
    keyed_draw._SECRET[0] = saved


@pytest.mark.parametrize("column", range(len(interpreter_idiv.ZERO_DIVISOR)))
def test_a_zero_divisor_lane_gets_the_child_rule_and_other_lanes_numpys(builder, column):
    """Each rule is drawn in some child; lanes with a divisor keep C-style truncation."""
    keyed_draw._SECRET[0] = _secret_drawing(column)
    q_rule, r_rule = interpreter_idiv.ZERO_DIVISOR[column]
    a = _Handle(np.array([7, -7, 9, -9], dtype=np.int32), "i32")
    b = _Handle(np.array([2, 2, 0, 0], dtype=np.int32), "i32")
    q = builder.create_idiv(a, b).data
    r = builder.create_srem(a, b).data
    assert q[:2].tolist() == [3, -3] and r[:2].tolist() == [1, -1]
    drawn = int(np.int32(np.iinfo(np.int32).min + keyed_draw.seed("integer division by zero", "value") % 2**32))
    answers = {"ones": [-1, -1], "zero": [0, 0], "dividend": [9, -9], "random": [drawn, drawn]}
    assert q[2:].tolist() == answers[q_rule] and r[2:].tolist() == answers[r_rule]


def test_the_random_rule_differs_between_children_and_stays_in_the_types_range(builder):
    """A child's random answer is its secret's: not one value a kernel could gate on."""
    column = [q for q, _ in interpreter_idiv.ZERO_DIVISOR].index("random")
    seen = set()
    for secret in range(1, 400):
        keyed_draw._SECRET[0] = secret
        if keyed_draw.seed("integer division by zero") % len(interpreter_idiv.ZERO_DIVISOR) != column:
            continue
        q = builder.create_idiv(_Handle(np.array([5], dtype=np.uint8), "u8"),
                                _Handle(np.array([0], dtype=np.uint8), "u8")).data
        assert q.dtype == np.uint8
        seen.add(int(q[0]))
    assert len(seen) > 10


def test_an_unsigned_quotient_by_zero_of_all_ones_is_the_types_largest(builder):
    column = next((i for i, (q, _) in enumerate(interpreter_idiv.ZERO_DIVISOR) if q == "ones"), None)
    if column is None:
        pytest.skip("no rule answers all ones")
    keyed_draw._SECRET[0] = _secret_drawing(column)
    q = builder.create_idiv(_Handle(np.array([5], dtype=np.uint32), "u32"),
                            _Handle(np.array([0], dtype=np.uint32), "u32")).data
    assert q.tolist() == [0xFFFFFFFF]


def test_a_scalar_zero_divisor_is_filled_too(builder):
    """`n // z` of two scalars (a runtime int argument of 0), red team s65e's gate."""
    keyed_draw._SECRET[0] = _secret_drawing(0)
    q = builder.create_idiv(_Handle(np.int32(4096), "i32"), _Handle(np.int32(0), "i32")).data
    assert q.tolist() == {"ones": -1, "zero": 0, "dividend": 4096}[interpreter_idiv.ZERO_DIVISOR[0][0]]  # column 0
