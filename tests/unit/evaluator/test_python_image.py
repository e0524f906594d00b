"""Python's behaviour as the GPU image's (evaluator.python_image): sum() adds as 3.12's to the
candidate's own code. Held to 3.12's documented answers, to the image's recorded ones
(evaluator/h200_names.json) and, where this machine has a Python 3.12, to it on random sums."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evaluator.python_image import _BuiltinSum, sum312

ROOT = Path(__file__).resolve().parents[3]


def test_float_sums_are_compensated_as_on_python_312():
    assert sum312([1e16, 1.0, -1e16]) == 1.0  # 0.0 on 3.11
    assert sum312([0.1] * 10) == 1.0  # 0.9999999999999999 on 3.11
    assert sum312([1e308, 1e308, -1e308]) == float("inf")  # overflow is not undone
    assert sum312(range(10)) == 45 and sum312([True, True]) == 2 and type(sum312([])) is int
    assert sum312([[1], [2]], []) == [1, 2]
    with pytest.raises(TypeError, match="can't sum strings"):
        sum312(["a"], "")


def test_the_stand_in_reads_as_the_builtin():
    stand_in = _BuiltinSum()
    assert repr(stand_in) == "<built-in function sum>" and stand_in.__name__ == "sum"
    assert stand_in([1e16, 1.0, -1e16]) == sum([1e16, 1.0, -1e16])  # the harness's own calls: this Python's


NAMES = ROOT / "evaluator" / "h200_names.json"


@pytest.mark.skipif(not NAMES.exists(), reason="no recording of the GPU image")
def test_sums_answer_as_the_recorded_image():
    probes = json.loads(NAMES.read_text())["python_probes"]
    assert probes
    for expression, answer in probes.items():
        assert repr(eval(expression, {"sum": sum312})) == answer, expression


def _python312() -> str | None:
    """A Python 3.12 that runs (pyenv's shim answers for versions it has not set up, and fails)."""
    for name in sorted(str(p) for p in Path.home().glob(".pyenv/versions/3.12*/bin/python")) + [
            shutil.which("python3.12") or ""]:
        if name and subprocess.run([name, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"],
                                   capture_output=True).returncode == 0:
            return name
    return None


@pytest.mark.skipif(sys.version_info >= (3, 12) or _python312() is None, reason="no Python 3.12 here")
def test_random_sums_agree_with_a_real_python_312():
    rng = random.Random(47)
    draws = [lambda: rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20), lambda: rng.randint(-10**6, 10**6),
             lambda: rng.choice([1, -1]) * 2 ** rng.randint(60, 70),
             lambda: rng.choice([0.1, -0.0, 1e308, -1e308, float("inf"), 1e16, -1e16, True])]
    cases = [([rng.choice(draws)() for _ in range(rng.randint(0, 8))],
              rng.choice([0, 0.0, 0.5, -0.0, True, 2 ** 64])) for _ in range(3000)]
    script = "import json,sys\nprint(json.dumps([repr(sum(i, s)) for i, s in json.loads(sys.stdin.read())]))"
    real = subprocess.run([_python312(), "-c", script], input=json.dumps(cases), capture_output=True,
                          text=True, check=True)
    assert json.loads(real.stdout) == [repr(sum312(i, s)) for i, s in cases]
