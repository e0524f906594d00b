"""Where a reduction's layout is not read uniquely by call site (red team rt49): a site that
compiled to several ops is matched to the op with the running call's operand shape and axis
(`device_ir.reduction_layout`), and a layout that cannot be read is drawn per call site,
operand shape, axis and op (`interpreter_order.layout`'s `where`), never per axis length
alone, so two different reductions of one length do not share one order."""
from __future__ import annotations

from evaluator import device_ir, interpreter_order


def test_a_site_with_two_ops_answers_the_one_with_the_calls_shape_and_axis(monkeypatch):
    key, site = ("spec",), (("k.py", 10, 5),)
    ops = {(0, (64, 16), 0, (64, 1, 2, 4)), (0, (16, 64), 1, (64, 1, 32, 2))}
    monkeypatch.setitem(device_ir._ORDERS, (key, site), ops)
    assert device_ir.reduction_layout(key, site, 0) is None  # two layouts, nothing to match
    assert device_ir.reduction_layout(key, site, 0, (64, 16), 0) == (64, 1, 2, 4)
    assert device_ir.reduction_layout(key, site, 0, (16, 64), 1) == (64, 1, 32, 2)
    assert device_ir.reduction_layout(key, site, 0, (32, 64), 1) is None  # no op matches
    assert device_ir.reduction_layout(key, site, 1, (64, 16), 0) is None  # other loops


def test_one_op_at_a_site_is_read_whatever_the_shape(monkeypatch):
    key, site = ("spec",), (("k.py", 11, 5),)
    monkeypatch.setitem(device_ir._ORDERS, (key, site), {(0, (64, 16), 0, (64, 1, 2, 4))})
    assert device_ir.reduction_layout(key, site, 0) == (64, 1, 2, 4)


def test_the_type_text_gives_the_shape_of_any_encoding():
    assert device_ir._shape("tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3}>>") == (64, 64)
    assert device_ir._shape("f32") is None


def test_two_reductions_of_one_length_draw_apart():
    """rt49: sums of a tl.dot result along its two 64-long axes shared `layout(64, "sum")`."""
    site = ((("k.py", 20, 9),), 0)
    draws = {interpreter_order.layout(64, "sum", ("sum", site, (64, 64), axis % 2) if axis < 2 else
                                      ("sum", ((("k.py", 20 + axis, 9),), 0), (64, 64), 1))
             for axis in range(40)}
    assert len(draws) > 1
    same = ("sum", site, (64, 64), 0)
    assert interpreter_order.layout(64, "sum", same) == interpreter_order.layout(64, "sum", same)


def test_placed_keys_a_draw_by_shape_and_axis():
    _, first = interpreter_order.placed(64, (64, 16), 0, "sum")
    _, second = interpreter_order.placed(64, (16, 64), 1, "sum")
    assert first != second
    lay = interpreter_order.drawn(64, "sum", first)
    assert lay[0] * lay[1] * lay[2] * lay[3] == 64
