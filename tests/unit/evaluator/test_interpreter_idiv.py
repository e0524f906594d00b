"""Integer division and remainder by a zero divisor under the CPU interpreter
(evaluator.interpreter_idiv): numpy's 0 was a CPU-only answer a kernel could gate its work on
(red team s65e). The 32- and 64-bit rules are the H100's, measured by
scripts/device/probe_idiv_zero.py (session 67); other types draw per child."""
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
        if keyed_draw.seed("integer division by zero") % len(interpreter_idiv.UNMEASURED) == column:
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


def _divide(builder, a, b, dtype):
    a, b = _Handle(np.array(a, dtype=dtype), "x"), _Handle(np.array(b, dtype=dtype), "x")
    return builder.create_idiv(a, b).data.tolist(), builder.create_srem(a, b).data.tolist()


@pytest.mark.parametrize("secret", [1, 2, 3, 4])
def test_measured_types_get_the_gpus_answer_in_every_child(builder, secret):
    """The H100's answers (probe_idiv_zero.py): every bit of a 32-bit quotient set, an int64
    quotient 0xFFFFFFFF where the dividend fits 32 unsigned bits and -1 otherwise, the dividend
    as the remainder; whatever the child's secret, and C-style truncation where b is not 0."""
    keyed_draw._SECRET[0] = secret
    q, r = _divide(builder, [7, -7, 9, -9, 0], [2, 2, 0, 0, 0], np.int32)
    assert q == [3, -3, -1, -1, -1] and r == [1, -1, 9, -9, 0]
    q, r = _divide(builder, [7, -7, 0, 2**33, 123456], [0, 0, 0, 0, 5], np.int64)
    assert q == [0xFFFFFFFF, -1, 0xFFFFFFFF, -1, 24691] and r == [7, -7, 0, 2**33, 1]
    q, r = _divide(builder, [7, 0xFFFFFFFF], [0, 0], np.uint32)
    assert q == [0xFFFFFFFF, 0xFFFFFFFF] and r == [7, 0xFFFFFFFF]


@pytest.mark.parametrize("column", range(len(interpreter_idiv.UNMEASURED)))
def test_an_unmeasured_type_gets_the_rule_its_child_drew(builder, column):
    """Each plausible rule is drawn in some child for a type the GPU was not probed on."""
    keyed_draw._SECRET[0] = _secret_drawing(column)
    q_rule, r_rule = interpreter_idiv.UNMEASURED[column]
    q, r = _divide(builder, [7, -7, 9, -9], [2, 2, 0, 0], np.int16)
    assert q[:2] == [3, -3] and r[:2] == [1, -1]
    drawn = int(np.int16(np.iinfo(np.int16).min + keyed_draw.seed("integer division by zero", "value") % 2**16))
    answers = {"ones": [-1, -1], "zero": [0, 0], "dividend": [9, -9], "random": [drawn, drawn]}
    assert q[2:] == answers[q_rule] and r[2:] == answers[r_rule]


def test_the_random_rule_differs_between_children_and_stays_in_the_types_range(builder):
    """A child's random answer is its secret's: not one value a kernel could gate on."""
    column = [q for q, _ in interpreter_idiv.UNMEASURED].index("random")
    seen = set()
    for secret in range(1, 400):
        keyed_draw._SECRET[0] = secret
        if keyed_draw.seed("integer division by zero") % len(interpreter_idiv.UNMEASURED) != column:
            continue
        q = builder.create_idiv(_Handle(np.array([5], dtype=np.uint8), "u8"),
                                _Handle(np.array([0], dtype=np.uint8), "u8")).data
        assert q.dtype == np.uint8
        seen.add(int(q[0]))
    assert len(seen) > 10


def test_a_scalar_zero_divisor_is_filled_too(builder):
    """`n // z` of two scalars (a runtime int argument of 0), red team s65e's gate: -1 as on
    the GPU, never numpy's 0."""
    q = builder.create_idiv(_Handle(np.int32(4096), "i32"), _Handle(np.int32(0), "i32")).data
    assert q.tolist() == -1
