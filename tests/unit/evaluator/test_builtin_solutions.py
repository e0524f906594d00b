"""Every built-in problem's reference Triton solution is correct, and the check itself bites.

All problems run in ONE child process (`python -m evaluator.problems.verify`) with
TRITON_INTERPRET=1 set in its environment before triton is imported; the child prints
one JSON line per problem. The GPU variant runs the same check at the realistic sizes.
"""
from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from common.problemset import builtin_problems, exec_problem_source

ROOT = Path(__file__).resolve().parents[3]
INTERPRETER_BUDGET_S = 120  # measured about 5 s on an idle 2-core machine


def run_verify(*args: str, device: str = "cpu", timeout: float = 600) -> tuple[dict, dict, float]:
    """Run the checker in a child; (results by name, summary, wall seconds)."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    if device == "cpu":
        env["TRITON_INTERPRET"] = "1"  # before the child imports triton
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "evaluator.problems.verify", "--device", device,
                           *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    wall = time.perf_counter() - start
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines and lines[-1].get("summary"), (
        f"no summary (rc={proc.returncode}):\n{proc.stderr[-3000:]}")
    results = {r["name"]: r for r in lines[:-1]}
    assert proc.returncode == (1 if lines[-1]["failed"] else 0)
    return results, lines[-1], wall


@pytest.fixture(scope="module")
def interpreter_run():
    return run_verify()


def test_every_builtin_solution_matches_its_reference_on_the_interpreter(interpreter_run):
    results, summary, wall = interpreter_run
    assert set(results) == {p.name for p in builtin_problems()}
    failures = {n: (r.get("error"), r.get("traceback")) for n, r in results.items() if not r["ok"]}
    counts = collections.Counter(r["family"] for r in results.values())
    print(f"\nbuilt-in solutions on the Triton interpreter: {len(results)} problems, "
          f"{dict(sorted(counts.items()))}, wall {wall:.1f} s (checks {summary['seconds']} s)")
    assert not failures, json.dumps(failures, indent=1)


def test_every_builtin_solution_launches_its_own_triton_kernels(interpreter_run):
    results, _, _ = interpreter_run
    silent = [n for n, r in results.items() if not r.get("launches") or not r.get("kernels")]
    assert not silent, f"solutions that launched no Triton kernel: {silent}"
    for problem in builtin_problems():
        for kernel in results[problem.name]["kernels"]:
            assert f"def {kernel}(" in problem.solution, (problem.name, kernel)


def test_interpreter_run_of_the_whole_set_stays_fast(interpreter_run):
    _, _, wall = interpreter_run
    slowest = max(interpreter_run[0].values(), key=lambda r: r["seconds"])
    print(f"\nslowest: {slowest['name']} {slowest['seconds']} s; whole child {wall:.1f} s")
    assert wall < INTERPRETER_BUDGET_S
    assert slowest["seconds"] < 10


def test_the_check_catches_wrong_and_kernel_free_solutions(tmp_path):
    problem = next(p for p in builtin_problems() if p.name == "activation/relu")
    (tmp_path / "wrong.py").write_text(problem.source)
    (tmp_path / "wrong.solution.py").write_text(problem.solution.replace(
        "tl.maximum(x, 0.0)", "tl.maximum(x, 0.01)"))
    (tmp_path / "no_kernel.py").write_text(problem.source)
    (tmp_path / "no_kernel.solution.py").write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
        "    def forward(self, x):\n        return torch.relu(x)\n")
    (tmp_path / "manifest.json").write_text(json.dumps(
        {name: {"sizes": {"cpu": {"batch_size": 4, "dim": 300}}}
         for name in ("wrong", "no_kernel")}))
    results, summary, _ = run_verify("--problems", str(tmp_path), timeout=300)
    assert sorted(summary["failed"]) == ["no_kernel", "wrong"]
    assert "max abs error" in results["wrong"]["error"]
    assert "launched no Triton kernel" in results["no_kernel"]["error"]


def _reference_output(problem, device="cpu"):
    module = exec_problem_source(problem, device)
    torch.manual_seed(0)
    model = module.Model(*module.get_init_inputs())
    torch.manual_seed(1)
    with torch.no_grad():
        return model(*module.get_inputs())


def test_tiny_output_problems_fail_an_all_zero_output():
    tiny = [p for p in builtin_problems() if "tiny_output" in p.tags]
    assert len(tiny) >= 2
    for problem in tiny:
        ref = _reference_output(problem).double()
        atol, rtol = problem.tolerance["atol"], problem.tolerance["rtol"]
        assert ref.abs().max() < 1e-2, problem.name  # zero would pass atol = rtol = 1e-2 ...
        assert (ref.abs() > atol + rtol * ref.abs()).any(), problem.name  # ... but not ours


def test_integer_output_problems_return_integers():
    tagged = [p for p in builtin_problems() if "integer_output" in p.tags]
    assert tagged
    for problem in tagged:
        out = _reference_output(problem)
        assert not out.is_floating_point() and out.dtype == torch.int64, problem.name


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_every_builtin_solution_passes_on_the_gpu_at_full_size():
    results, _, wall = run_verify("--bench", device="cuda", timeout=1200)
    failures = {n: r.get("error") for n, r in results.items() if not r["ok"]}
    speedups = sorted((r.get("speedup", 0.0), n) for n, r in results.items() if r["ok"])
    print(f"\nGPU: {len(results)} problems in {wall:.0f} s; slowest solutions {speedups[:5]}")
    assert not failures, json.dumps(failures, indent=1)
