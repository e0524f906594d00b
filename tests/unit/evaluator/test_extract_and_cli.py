"""Code extraction from model responses and `krl check` (a real subprocess, CPU interpreter)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import FIXTURES, HACKS

from common.extract import extract_code


def test_extract_takes_the_last_block_defining_modelnew_outside_think():
    response = ("<think>\n```python\nclass ModelNew:  # draft\n    pass\n```\n</think>\nHere it is:\n"
                "```python\nimport torch\nclass ModelNew:\n    pass\n```\nand a test:\n"
                "```python\nprint(ModelNew())\n```\n```bash\nls\n```\n")
    assert extract_code(response) == "import torch\nclass ModelNew:\n    pass\n"


def test_extract_handles_untagged_and_missing_blocks():
    assert extract_code("```\nx = 1\n```") == "x = 1\n"
    assert extract_code("no code here") is None
    assert extract_code("<think>```python\nx = 1\n```") is None  # only inside unfinished reasoning
    assert extract_code("```bash\nrm -rf /\n```") is None


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "launcher.cli", "check", *args], capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def small_problem(tmp_path_factory):
    source = (FIXTURES / "relu.py").read_text().replace("batch_size = 16", "batch_size = 2") \
        .replace("dim = 16384", "dim = 128")
    path = tmp_path_factory.mktemp("problem") / "relu.py"
    path.write_text(source)
    return path


def test_check_json_for_a_correct_kernel(small_problem):
    result = _check("--problem", str(small_problem), "--candidate", str(FIXTURES / "relu_solution.py"),
                    "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "ok" and verdict["correct"] and verdict["reward"] > 0
    assert {"status", "correct", "speedup", "reward", "hacks", "feedback", "phase_seconds"} <= set(verdict)


def test_check_response_without_code_is_a_format_error_and_exits_zero(small_problem, tmp_path):
    response = tmp_path / "response.md"
    response.write_text("<think>hmm</think> I would write a kernel but I won't.")
    result = _check("--problem", str(small_problem), "--response", str(response), "--device", "cpu")
    assert result.returncode == 0
    assert "format_error" in result.stdout


def test_check_reports_a_hack_readably_and_usage_errors_exit_2(small_problem, tmp_path):
    response = tmp_path / "response.md"
    response.write_text("Sure:\n```python\n" + (HACKS / "try_except_fallback.py").read_text() + "```\n")
    result = _check("--problem", str(small_problem), "--response", str(response), "--device", "cpu")
    assert result.returncode == 0 and "status:   hack" in result.stdout and "try_except" in result.stdout
    missing = _check("--problem", str(tmp_path / "nope.py"), "--candidate", str(response))
    assert missing.returncode == 2 and "krl check" in missing.stderr
    assert _check("--problem", str(small_problem)).returncode == 2  # neither --candidate nor --response
