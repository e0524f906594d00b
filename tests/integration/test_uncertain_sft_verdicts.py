"""The demo's and the learning benchmark's answer variants (scripts/uncertain_sft.py) are
judged as the SFT mix assumes: `krl check` (real subprocess, CPU interpreter) on ReLU's
wrong, broken and hack variants gives incorrect, compile_error and hack, all reward 0.
(fast and slow are timed, and must be ok, in the benchmark's calibration step.)"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import uncertain_sft as U  # noqa: E402

from common.problemset import load_problems  # noqa: E402


@pytest.mark.parametrize(
    "variant,status", [("wrong", "incorrect"), ("broken", "compile_error"), ("hack", "hack")]
)
def test_failing_variants_get_their_verdict_and_no_reward(variant, status, tmp_path):
    p = load_problems("builtin:activation/relu")[0]
    path = tmp_path / f"{variant}.py"
    path.write_text(U.variants(p.solution, p.source)[variant])
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "launcher.cli",
            "check",
            "--problem",
            "builtin:activation/relu",
            "--candidate",
            str(path),
            "--device",
            "cpu",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    verdict = json.loads(r.stdout)
    assert verdict["status"] == status
    assert verdict["reward"] == 0.0 and not verdict["correct"]


@pytest.mark.parametrize("garble", [f"garbled{k}" for k in range(U.GARBLES)])
def test_relus_garbled_first_answers_fail_with_feedback_to_repair(garble, tmp_path):
    """The learning benchmark's garbled first answers (`--garbles`) are failures whose
    feedback names what broke; `record` would drop one that passed."""
    p = load_problems("builtin:activation/relu")[0]
    path = tmp_path / f"{garble}.py"
    path.write_text(U.garbles(p.solution, p.source)[garble])
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "launcher.cli",
            "check",
            "--problem",
            "builtin:activation/relu",
            "--candidate",
            str(path),
            "--device",
            "cpu",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    verdict = json.loads(r.stdout)
    assert verdict["status"] not in ("ok", "hack") and verdict["reward"] == 0.0
    assert verdict["error_source"] in ("", "candidate") and verdict["feedback"].strip()
