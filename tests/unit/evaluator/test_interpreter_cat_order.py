"""The element order of tl.cat(can_reorder=True) and tl.reshape(can_reorder=True) under the CPU
interpreter: the order the compiled op's layouts give on the GPU (evaluator.register_order,
read off the TTGIR compiled for sm_90 by call site: evaluator.device_ir.view_order), not a draw.

- `register_order.bases` turns blocked and slice encodings into linear layouts as Triton's
  toLinearLayout does (held to the CPU's compiler, Triton 3.9, through gluon's
  to_linear_layout, on a grid of layouts and shapes);
- a cat concatenates each thread's registers (red team rt49: two [64] tiles at 4 warps come
  out interleaved);
- scripts/probe_cat_order.py run under the interpreter (a child process with
  TRITON_INTERPRET=1, as the script is run by hand) gives the orders of
  fixtures/h200_cat_order.json, the H200's (`python scripts/probe_cat_order.py` on the GPU,
  Triton 3.6, session 49: 156 cases, equal to the emulation's); where the two differ the GPU's
  passes picked other layouts than the CPU's Triton, and this test then says which cases.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluator import register_order

ROOT = Path(__file__).resolve().parents[3]
EXPECTED = json.loads((Path(__file__).parent / "fixtures" / "h200_cat_order.json").read_text())


def _blocked(spt, tpw, wpc, order) -> str:
    text = lambda v: "[" + ", ".join(map(str, v)) + "]"  # noqa: E731
    return (f"#ttg.blocked<{{sizePerThread = {text(spt)}, threadsPerWarp = {text(tpw)}, "
            f"warpsPerCTA = {text(wpc)}, order = {text(order)}}}>")


def test_blocked_and_slice_layouts_as_the_compiler_builds_them():
    import triton.experimental.gluon.language as gl
    from triton._C.libtriton import gluon_ir, ir

    context = ir.context()
    ir.load_dialects(context)
    builder = gluon_ir.GluonOpBuilder(context)

    def compiler(layout, shape):
        ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
        return ([tuple(b) for b in ll.reg_bases], [tuple(b) for b in ll.lane_bases], [tuple(b) for b in ll.warp_bases])

    checked = 0
    for spt in itertools.product((1, 2, 4), repeat=2):
        for tpw in ((1, 32), (8, 4), (32, 1)):
            for wpc in ((1, 1), (2, 2), (1, 8)):
                for order in ((0, 1), (1, 0)):
                    for shape in ((1, 64), (8, 8), (32, 4), (64, 128)):
                        layout = gl.BlockedLayout(list(spt), list(tpw), list(wpc), list(order))
                        text = _blocked(spt, tpw, wpc, order)
                        assert register_order.bases(text, shape) == compiler(layout, shape), (text, shape)
                        for dim in (0, 1):
                            sliced = (shape[1 - dim],)
                            got = register_order.bases(f"#ttg.slice<{{dim = {dim}, parent = {text}}}>", sliced)
                            assert got == compiler(gl.SliceLayout(dim, layout), sliced), (dim, text, sliced)
                        checked += 1
    for n in (1, 2, 32, 64, 256):
        for spt in (1, 2, 4):
            for warps in (1, 4, 8):
                layout = gl.BlockedLayout([spt], [32], [warps], [0])
                assert register_order.bases(_blocked([spt], [32], [warps], [0]), (n,)) == compiler(layout, (n,))
    assert checked == 648


def test_cat_interleaves_each_threads_registers():
    """rt49's case: [64] operands at 4 warps (#blocked<[1],[32],[4]>: lane l of warp w holds
    element l + 32 (w & 1)), the result #blocked<[2],[32],[4]> (register r of that thread is
    element r + 2 l + 64 (w & 1)): result 2j holds lhs j, 2j + 1 rhs j."""
    operand = "tensor<64xf32, " + _blocked([1], [32], [4], [0]) + ">"
    result = "tensor<128xf32, " + _blocked([2], [32], [4], [0]) + ">"
    order = register_order.cat_order(operand, operand, result)
    assert order.tolist() == [v for j in range(64) for v in (j, 64 + j)]
    pointers = [t.replace("xf32", "x!tt.ptr<f32>") for t in (operand, result)]  # a cat of pointers alike
    assert register_order.cat_order(pointers[0], pointers[0], pointers[1]).tolist() == order.tolist()


def test_reshape_keeps_each_threads_registers():
    """[16, 16] with 2 lanes along rows (register 1 is row + 8) into [256] with 2 registers a
    thread: the two halves of the tile interleave; a layout pair that tiles alike is the
    identity; an encoding not read (an MMA result) gives None."""
    src = "tensor<16x16xf32, " + _blocked([1, 1], [2, 16], [4, 1], [1, 0]) + ">"
    dst = "tensor<256xf32, " + _blocked([2], [32], [4], [0]) + ">"
    assert register_order.reshape_order(src, dst).tolist() == [v for j in range(128) for v in (j, 128 + j)]
    same = "tensor<16x16xf32, " + _blocked([1, 2], [4, 8], [4, 1], [1, 0]) + ">"
    assert register_order.reshape_order(same, dst).tolist() == list(range(256))
    mma = "tensor<16x16xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>>"
    assert register_order.reshape_order(mma, dst) is None


def test_linear_encoding_is_read_as_printed():
    linear = ("tensor<4x2xi32, #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], "
              "warp = [], block = []}>>")
    flat = "tensor<8xi32, " + _blocked([2], [32], [1], [0]) + ">"
    # lane l holds row l (lanes 4.. copy), its two registers the row's columns: the identity
    assert register_order.reshape_order(linear, flat).tolist() == list(range(8))


@pytest.fixture(scope="module")
def interpreted() -> dict:
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    env.pop("QUICK", None)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "probe_cat_order.py"), "--cpu"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_probe_orders_as_the_fixture(interpreted):
    cases = interpreted["cases"]
    assert cases.keys() == EXPECTED["cases"].keys()
    differ = sorted(name for name in cases if cases[name] != EXPECTED["cases"][name])
    assert not differ, differ
    for name, order in cases.items():  # every case a permutation, none a drawn one
        assert sorted(order) == list(range(len(order))), name
    assert cases["cat_64+64_float32_w4_arange"][:4] == [0, 64, 1, 65]


def test_fixture_is_the_gpus_measurement():
    """The fixture is what an H200 answered (an emulation's own output would say "expected, not
    yet measured" in its status and prove nothing)."""
    assert EXPECTED["device"].startswith("NVIDIA") and "not yet measured" not in EXPECTED.get("status", "")
    assert all(isinstance(v, list) and np.array_equal(np.sort(v), np.arange(len(v))) for v in EXPECTED["cases"].values())
