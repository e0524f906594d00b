"""A float8 `tl.dot` into float32 under the CPU interpreter against the H200's (evaluator.
interpreter_dot8): the H200 keeps 13 bits below the largest term of each wgmma k-step of 32,
the interpreter summed exactly (red team rt48, hacks/rt48_fp8_* and s49_fp8_*).

- fixtures/h200_fp8_dot.json (session 48, Triton 3.6, num_warps 4): rows [1, s, ...] times
  columns [1, s, ...]; every case is reproduced exactly, 16-row (MMA v2) tiles exact;
- fixtures/h200_fp8_probe.json, once the coordinator has run scripts/probe_fp8_dot.py on the
  H200 and saved its output there: every case and random tile of the probe run interpreted
  here must equal it (skipped until then). The probe runs in a child with TRITON_INTERPRET=1,
  as by hand, with `shape_rule` made to fail: each dot's form must come from the TTGIR record.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from evaluator import interpreter_dot8 as dot8

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures"
H200 = json.loads((FIXTURES / "h200_fp8_dot.json").read_text())
PROBE = FIXTURES / "h200_fp8_probe.json"


def _emulated(a: np.ndarray, b: np.ndarray, warps: int = 4, imprecise: int = dot8.SM90_IMPRECISE_DEFAULT,
              acc: float = 0.0) -> np.ndarray:
    c = np.full((a.shape[0], b.shape[1]), acc, dtype=np.float32)
    if dot8.shape_rule(a.shape, b.shape, imprecise, warps):
        return dot8.wgmma_fp8_accumulated(a, b, c, imprecise)
    return (a.astype(np.float64) @ b.astype(np.float64) + acc).astype(np.float32)


def _pattern(m: int, k: int, s: float, n: int = 16) -> tuple[np.ndarray, np.ndarray]:
    row = np.array([1.0] + [s] * (k - 1))
    return np.tile(row, (m, 1)), np.tile(row[:, None], (1, n))


@pytest.mark.parametrize("case", H200["fp8_dot"], ids=lambda c: f'm{c["m"]}-k{c["k"]}-j{c["j"]}')
def test_measured_h200_cases(case):
    a, b = _pattern(case["m"], case["k"], 2.0 ** -case["j"])
    got = _emulated(a, b)
    assert np.all(got == case["got"]), (got[0, 0], case)


def test_promotion_every_max_num_imprecise_acc():
    """K = 128, [1, 2**-7, ...]: the first k-step loses its 2**-14s next to 1; with a promotion
    every N/32 k-steps a fresh partial sum keeps the later ones (WGMMA.cpp's partialAcc)."""
    a, b = _pattern(64, 128, 2.0 ** -7)
    for imprecise, want in ((dot8.SM90_IMPRECISE_DEFAULT, 1.0), (128, 1.0), (96, 1 + 2 ** -9),
                            (64, 1 + 2 ** -8), (32, 1 + 3 * 2 ** -9)):
        assert _emulated(a, b, imprecise=imprecise)[0, 0] == want, imprecise
    assert _emulated(a, b, imprecise=0)[0, 0] == 1 + 127 * 2 ** -14  # < 32: MMA v2, exact
    assert _emulated(a, b, warps=2)[0, 0] == 1 + 127 * 2 ** -14


def test_truncation_follows_the_largest_term():
    """Aligned on the largest of the products and the accumulator: 2**-13 kept next to 1,
    products of 1 lost next to an accumulator of 2**14, nothing lost among equals."""
    a = np.tile(np.array([1.0] + [2.0 ** -6] * 31), (64, 1))
    b = np.tile(np.array([1.0] + [2.0 ** -7] * 31)[:, None], (1, 8))
    assert _emulated(a, b)[0, 0] == 1 + 31 * 2 ** -13
    ones = np.ones((64, 32))
    assert _emulated(ones, np.ones((32, 8)), acc=2.0 ** 14)[0, 0] == 2.0 ** 14
    assert _emulated(ones, np.ones((32, 8)))[0, 0] == 32.0


@pytest.mark.parametrize(("m", "n", "k", "imprecise", "warps", "wgmma"), [
    (64, 64, 32, dot8.SM90_IMPRECISE_DEFAULT, 4, True), (16, 64, 32, dot8.SM90_IMPRECISE_DEFAULT, 4, False),
    (64, 64, 32, dot8.SM90_IMPRECISE_DEFAULT, 2, False), (64, 64, 32, 0, 4, False), (64, 64, 32, 16, 4, False),
    (64, 64, 64, 32, 4, True), (64, 8, 32, dot8.SM90_IMPRECISE_DEFAULT, 4, True),
    (128, 64, 64, dot8.SM90_IMPRECISE_DEFAULT, 8, True)])
def test_shape_rule_is_the_compilers(m, n, k, imprecise, warps, wgmma):
    """`shape_rule` against what Triton's TTGIR passes make of the dot for sm_90 (compiled here,
    on the CPU: ttng.warp_group_dot or tt.dot with an MMA v2 layout)."""
    assert dot8.shape_rule((m, k), (k, n), imprecise, warps) is wgmma
    assert _compiled_is_wgmma(m, n, k, imprecise, warps) is wgmma


def _compiled_is_wgmma(m, n, k, imprecise, warps) -> bool:
    import triton
    import triton.language as tl
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource

    from evaluator.device_compile import _backend

    @triton.jit
    def kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IMP: tl.constexpr):
        rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :]).to(tl.float8e4nv)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :]).to(tl.float8e4nv)
        if IMP == 1 << 30:
            c = tl.dot(a, b)
        else:
            c = tl.dot(a, b, max_num_imprecise_acc=IMP)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)

    target, backend = _backend()
    options = backend.parse_options({"num_warps": warps})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    src = ASTSource(kernel, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "constexpr",
                             "N": "constexpr", "K": "constexpr", "IMP": "constexpr"},
                    {(3,): m, (4,): n, (5,): k, (6,): imprecise}, {})
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                         context)
    module = backend.make_ttgir(backend.make_ttir(module, {}, options, target.arch), {}, options, target.arch)
    names: list = []
    module.walk(lambda op: names.append(op.get_name()))
    assert "ttng.warp_group_dot" in names or "tt.dot" in names
    return "ttng.warp_group_dot" in names


def test_fp8_matmul_error_is_the_gpus_not_more():
    """An honest float8 matmul (64 rows, K = 104 padded to 128 as a masked K tile would be, and
    K = 2048): against float32 on the float8-rounded inputs its relative error norm is the
    truncation's, about 2**-13 per k-step, not a wrong answer (within 1e-3 at K = 2048)."""
    g = torch.Generator().manual_seed(1)
    for k, depth, bound in ((104, 128, 2e-4), (2048, 2048, 1e-3)):
        a = torch.zeros(64, depth)
        b = torch.zeros(depth, 64)
        a[:, :k] = torch.randn(64, k, generator=g).to(torch.float8_e4m3fn).float()
        b[:k] = torch.randn(k, 64, generator=g).to(torch.float8_e4m3fn).float()
        exact = a.double() @ b.double()
        got = torch.from_numpy(dot8.wgmma_fp8_accumulated(a.numpy(), b.numpy(), np.zeros((64, 64), np.float32),
                                                          dot8.SM90_IMPRECISE_DEFAULT)).double()
        assert ((got - exact).norm() / exact.norm()).item() < bound, k


@pytest.fixture(scope="module")
def interpreted() -> dict:
    """The probe under TRITON_INTERPRET=1, `shape_rule` made to fail (every dot read off the TTGIR)."""
    driver = ("import runpy, sys\n"
              "from evaluator import interpreter_dot8\n"
              "def refused(*a, **k):\n"
              "    raise AssertionError('a float8 dot decided without its TTGIR record')\n"
              "interpreter_dot8.shape_rule = refused\n"
              "runpy.run_path('scripts/probe_fp8_dot.py', run_name='__main__')\n")
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", driver], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_probe_interpreted_reproduces_the_measurement(interpreted):
    measured = {(c["m"], c["k"], c["j"]): c["got"] for c in H200["fp8_dot"]}
    seen = 0
    for case in interpreted["cases"]:
        if case["name"].startswith("repro"):
            key = (case["m"], case["k"], int(case["name"].split("=")[1]))
            if key in measured:
                assert case["got"] == measured[key], case
                seen += 1
        assert case["spread"] == 0.0, case
    assert seen >= 12


@pytest.mark.skipif(not PROBE.exists(), reason="run scripts/probe_fp8_dot.py on the H200 into fixtures/h200_fp8_probe.json")
def test_probe_as_the_h200(interpreted):
    gpu = json.loads(PROBE.read_text())
    for cpu_case, gpu_case in zip(interpreted["cases"], gpu["cases"], strict=True):
        assert cpu_case["name"] == gpu_case["name"]
        assert cpu_case["got"] == gpu_case["got"], (cpu_case, gpu_case)
    for cpu_tile, gpu_tile in zip(interpreted["random"], gpu["random"], strict=True):
        assert cpu_tile["got"] == gpu_tile["got"], {k: (cpu_tile[k], gpu_tile[k]) for k in ("fa", "k", "scale")}
