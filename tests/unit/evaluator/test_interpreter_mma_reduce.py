"""Reductions of a tl.dot result (an `nvidia_mma` operand) combine in the order of its linear
layout (evaluator.register_order `_mma`, `axis_bits`; evaluator.interpreter_order `bits_index`),
held to tests/unit/evaluator/fixtures/h200_mma_reduce.json, what an H200 answered
(scripts/probe_mma_reduce.py on Triton 3.6, session 49: 14 cases, every field equal to the
emulation's)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from evaluator import register_order

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests/unit/evaluator/fixtures/h200_mma_reduce.json"


def test_wgmma_layout_bases():
    t = ("tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 64, 16]}>>")
    reg, lane, warp = register_order.bases(register_order.parse(t)[1], (64, 64))
    assert reg == [(0, 1), (8, 0), (0, 8), (0, 16), (0, 32)]
    assert lane == [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    assert warp == [(16, 0), (32, 0)]
    assert register_order.axis_bits(t, 0) == (64, (8,), (1, 2, 4), (16, 32))
    assert register_order.axis_bits(t, 1) == (64, (1, 8, 16, 32), (2, 4), ())


def test_mma_v2_layout_bases():
    t = ("tensor<16x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], "
         "instrShape = [16, 8]}>>")
    assert register_order.axis_bits(t, 1) == (64, (1, 32), (2, 4), (8, 16))


def test_probe_matches_fixture(tmp_path):
    out = tmp_path / "cpu.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(out, "w") as fh:
        subprocess.run([sys.executable, str(ROOT / "scripts/probe_mma_reduce.py"), "--cpu"], stdout=fh, env=env,
                       cwd=ROOT, check=True, timeout=600)
    got, want = json.loads(out.read_text()), json.loads(FIXTURE.read_text())
    for a, b in zip(got["cases"], want["cases"], strict=True):
        for field in ("acc", "sum0", "sum1", "max1"):
            assert a[field] == b[field], (a["dtype"], a["M"], a["N"], a["warps"], field)


def test_wgmma_row_sum_order_by_hand():
    """tl.sum(acc, 1) of a 64x64 wgmma accumulator: lane c (of the 4 along N) folds columns
    8k + 2c, 8k + 2c + 1 for k = 0..7 in that order; lanes then combine xor 2, then xor 1."""
    import numpy as np

    from evaluator import interpreter_order

    t = ("tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 64, 16]}>>")
    n, regs, lanes, warps = register_order.axis_bits(t, 1)
    rng = np.random.default_rng(0)
    x = (rng.choice([-1.0, 1.0], (64, 64)) * 2.0 ** rng.integers(-30, 1, (64, 64))).astype(np.float32)
    add = interpreter_order.adder("f32")
    got = interpreter_order.reduce_exact([x], lambda a, b: [add(a[0], b[0])], ("bits", regs, lanes, warps))[0]
    per_lane = []
    for c in range(4):
        cols = [8 * k + 2 * c + j for k in range(8) for j in range(2)]
        acc = x[:, cols[0]]
        for col in cols[1:]:
            acc = add(acc, x[:, col])
        per_lane.append(acc)
    half = [add(per_lane[0], per_lane[2]), add(per_lane[1], per_lane[3])]
    want = add(half[0], half[1])
    assert np.array_equal(got, want)
    seq = x[:, 0]
    for col in range(1, 64):
        seq = add(seq, x[:, col])
    assert not np.array_equal(got, seq)  # the data tells the orders apart
