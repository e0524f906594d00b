"""Float min, max and clamp under the CPU interpreter as the H200 computes them
(evaluator.interpreter_minmax): scripts/probe_minmax_ties.py run under the interpreter gives,
bit for bit, what the H200 gave (fixtures/h200_minmax_ties.json, session 49): signed zeros in
tl.maximum/tl.minimum, and the symmetric clamp Triton lowers to min.xorsign.abs.f32 (a NaN x
clamps to +h, a negative x against a zero limit to -0)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[3]
FIXTURE = Path(__file__).parent / "fixtures" / "h200_minmax_ties.json"


def test_the_interpreter_answers_as_the_h200_bit_for_bit():
    gpu = json.loads(FIXTURE.read_text())
    assert gpu["device"].startswith("NVIDIA")
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "probe_minmax_ties.py"), "--cpu"],
                         capture_output=True, text=True, timeout=300, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    cpu = json.loads(run.stdout)
    differ = {case: [i for i, (a, b) in enumerate(zip(cpu["cases"][case], bits)) if a != b]
              for case, bits in gpu["cases"].items()}
    assert not any(differ.values()), differ
    # what the cases are about: the H200 is not numpy here
    plus_zero, minus_zero, one, nan = 0, -(1 << 31), 0x3F800000, 0x7FC00000
    values = gpu["values"]
    at = {(i, j): i * len(values) + j for i in range(len(values)) for j in range(len(values))}
    assert gpu["cases"]["maximum"][at[0, 1]] == plus_zero  # max(+0, -0)
    assert gpu["cases"]["minimum"][at[1, 0]] == minus_zero  # min(-0, +0)
    assert gpu["cases"]["clamp_sym_abs_b"][at[4, 2]] == one  # clamp(NaN, -1, 1) = +1
    assert nan != one


def test_a_clamp_outside_the_clip_pattern_keeps_fmin_fmax():
    from evaluator import interpreter_minmax as M

    text = """
    %cst = arith.constant dense<-2.000000e+00> : tensor<64xf32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<3.000000e+00> : tensor<64xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %5 = tt.load %4 : tensor<64x!tt.ptr<f32>>
    %6 = arith.negf %5 : tensor<64xf32>
    %7 = arith.subf %cst_2, %5 : tensor<64xf32>
    %8 = tt.load %3 : tensor<64x!tt.ptr<f32>>
    %10 = tt.clampf %1, %cst, %cst_0, propagateNan = none : tensor<64xf32>
    %11 = tt.clampf %1, %cst, %cst_1, propagateNan = none : tensor<64xf32>
    %12 = tt.clampf %1, %6, %5, propagateNan = none : tensor<64xf32>
    %13 = tt.clampf %1, %7, %5, propagateNan = none : tensor<64xf32>
    %14 = tt.clampf %1, %8, %5, propagateNan = none : tensor<64xf32>
    %15 = tt.clampf %1, %6, %8, propagateNan = none : tensor<64xf32>
    %cst_3 = arith.constant -1.000000e+00 : f32
    %cst_4 = arith.constant 1.000000e+00 : f32
    %16 = tt.clampf %2, %cst_3, %cst_4, propagateNan = none : f32
    """
    # constants -2/2 and -hi / 0 - hi are the pattern; -2/3, loaded bounds, -hi of another and a
    # scalar clamp are not (the H200 answered -1 for a scalar NaN between -1.0 and 1.0)
    assert M._clip_patterns(text) == [True, False, True, True, False, False, False]
