"""The CPU interpreter's float sums, cumsums and argmax against an H200's (Triton 3.6) answers
for the same kernels (scripts/probe_reduction_order.py, measured on the GPU into
fixtures/h200_reduction_order.json): a 1 followed by N-1 half-ulps of 1, summed and scanned in
float16, bfloat16 and float32 under 1, 4 and 8 warps, and the argmax of equal values, each
case equal to the GPU's exactly; row sums of random normal rows with the GPU's error statistics.
The order comes from each reduction's layout as Triton compiles the launch for sm_90
(evaluator.device_ir.reduction_layout, evaluator.interpreter_order.reduce_exact/scan_exact):
a layout drawn at random per axis length gave other answers in every cumsum case and in the
sums whose layout depends on num_warps.

The probe runs in a child process with TRITON_INTERPRET=1, as the script is run by hand.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
H200 = json.loads((Path(__file__).parent / "fixtures" / "h200_reduction_order.json").read_text())


@pytest.fixture(scope="module")
def interpreted() -> dict:
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "probe_reduction_order.py")], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", range(len(H200["tiny"])),
                         ids=[f'{c["dtype"][6:]}-n{c["n"]}-w{c["warps"]}' for c in H200["tiny"]])
def test_tiny_case_as_the_h200(interpreted, case):
    gpu, cpu = H200["tiny"][case], interpreted["tiny"][case]
    assert (cpu["dtype"], cpu["n"], cpu["warps"]) == (gpu["dtype"], gpu["n"], gpu["warps"])
    for what in ("sum", "cumsum_last", "argmax_zeros"):
        assert cpu[what] == gpu[what], (what, cpu, gpu)


def test_row_sum_errors_as_the_h200(interpreted):
    for gpu, cpu in zip(H200["rows"], interpreted["rows"], strict=True):
        assert (cpu["dtype"], cpu["n"]) == (gpu["dtype"], gpu["n"])
        for stat in ("median_abs_err", "max_abs_err", "mean_abs_err"):
            assert cpu[stat] == pytest.approx(gpu[stat], rel=0.05), (stat, cpu, gpu)


def test_float16_accumulator_dot_as_the_h200(interpreted):
    assert interpreted["f16_acc_dot"]["got"] == H200["f16_acc_dot"]["got"]
