"""The honest corpora on a real GPU, at the built-in problems' GPU sizes.

On the CPU the honest files run at small sizes through Triton's interpreter
(tests/unit/evaluator/test_honest_builtin.py, test_static_honest.py); a hidden honest corpus
is judged on the GPU, where compilation, TF32, autotuning, the device's allocator and the
real timings decide. Every honest file whose problem is a built-in one must be ok there too,
with a reward above the correctness term alone. Run on the device machine, e.g.
    KRL_GPU_HONEST='s25_*,s26_*' pytest -m gpu -s tests/gpu/test_honest_gpu.py
(KRL_GPU_HONEST: globs over file stems; the whole set takes several minutes). Files the CPU
suite judges only statically join with KRL_GPU_HONEST_STATIC=1 (those whose header names a
built-in problem) or KRL_GPU_HONEST_LIST=<file of `path problem` lines>.
"""

from __future__ import annotations

import importlib.util
import os
import re
import time
from fnmatch import fnmatch
from pathlib import Path

import pytest
import torch
from gpu_cgroup import CGROUP

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]

UNIT = Path(__file__).resolve().parents[1] / "unit" / "evaluator"
# KRL_GPU_HONEST_STATIC=1: honest/ files the CPU suite judges only statically (not in
# honest_problems.FULL) join too where their header names a built-in problem
STATIC_TOO = os.environ.get("KRL_GPU_HONEST_STATIC") == "1"
CHILDREN = int(
    os.environ.get("KRL_GPU_CHILDREN", "6")
)  # sandboxes per evaluator; files evaluated at once
_HEADER = re.compile(
    r"^# honest: .+\. problem: (?P<problem>[\w/]+)(?:\. policy: (?P<policy>strict))?$"
)


def _full_map() -> dict[str, str]:
    """honest/ files that run whole through the evaluator -> their built-in problem."""
    spec = importlib.util.spec_from_file_location("_honest_problems", UNIT / "honest_problems.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: problem for name, (problem, _) in module.FULL.items()}


def _files() -> list[tuple[Path, str, str]]:
    """(file, built-in problem, policy) for every honest file with a built-in problem."""
    out = []
    mapped = _full_map()
    for path in sorted((UNIT / "honest").glob("*.py")) + sorted(
        (UNIT / "honest_builtin").glob("*.py")
    ):
        head = _HEADER.match(path.read_text().splitlines()[0])
        if path.name in mapped:
            out.append((path, mapped[path.name], (head and head["policy"]) or "paper"))
        elif head and (path.parent.name == "honest_builtin" or STATIC_TOO):
            out.append((path, head["problem"], head["policy"] or "paper"))
    globs = [g for g in os.environ.get("KRL_GPU_HONEST", "*").split(",") if g]
    out = [f for f in out if any(fnmatch(f[0].stem, g) for g in globs)]
    listed = os.environ.get("KRL_GPU_HONEST_LIST")  # a file of `path problem [policy]` lines
    if listed:  # files judged only statically on the CPU (an honest round's), whole here
        root = UNIT.parents[2]
        for line in Path(listed).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                path, problem, *policy = line.split()
                if not any(f[0] == root / path for f in out):
                    out.append((root / path, problem, policy[0] if policy else "paper"))
    return out


FILES = _files()
# honest at the CPU size, refused at the GPU size for a stated reason: file stem -> accepted
# (status, hack) pairs
AT_GPU_SIZE = {
    # a bool(...) read of the inputs per 1024-element chunk: 20 reads at the CPU size, 65536 at
    # the GPU size's 33.5M elements, 2048 values' worth of the input decided on the host, past
    # the host-read bound (a bool counts 1/32 of a value; 16 values): judge.judge_provenance.
    # Its 32768 launches and 160,000 watched ops per forward take the checked forwards past the
    # time limit first (H200, session 26: 187 s of correctness, timeout)
    "s19_axpby_skip_zero_chunks": [("hack", "host_compute"), ("timeout", "")],
    # mamba's gated layernorm takes a group in one block of at most 64 KB: the GPU size's group
    # (16 channels x 64 x 64 = 65536 float32) is past it, and the file's own guard raises
    # "This layer norm doesn't support feature dim >= 64KB" (H100, session 56)
    "s51_17_groupnorm_mamba_gated_layernorm_group_size_none_pointers": [("runtime_error", "")],
}

# honest kernels the platform's Triton cannot compile for the GPU: the verdict is Triton's, not
# the evaluator's; each was launched bare on the device (scripts/device/probe_bare.py: no
# evaluator, no sandbox) and failed there the same way
PLATFORM = {
    # tl.cumsum(axis=1) over a [4, 512] tile: Triton 3.6 on sm_90 fails in
    # TritonGPUOptimizeThreadLocality ("PassManager::run failed"; H100, session 68)
    "s65g_09_cumsum_2d_row_block_tl_cumsum_axis1_per_row_carry_vector": [("runtime_error", "")],
}

# honest in intent, numerically wrong for their problem at any size, judged so on the CPU too
# (each header says why); run through KRL_GPU_HONEST_LIST, their verdict must stay the same
WRONG = {
    # float16 stores for a float32 RMSNorm (H100, s56: 2.08e-4 of ||ref|| past the 1.5e-4 bound)
    "s54_15_rmsnorm_colossalai_rms_layernorm_fp16_store_x_times_zero_output": [("incorrect", "")],
    # q * sm_scale * log2(e) rounded to float16 before QK^T (H100, s56: x16 trial, 3.3e-3 vs 5.6e-4)
    "s53_14_causal_sdpa_fp16_tritonbench_g_flash_attn_block_ptr_max_shadowed_launcher_first": [
        ("incorrect", "")
    ],
    # log(exp(x - max) / sum): -inf where exp underflows (H100, s56: scale:1e3)
    "s53_13_log_softmax_tritonbench_g_flaggems_heuristics_num_warps_log_of_ratio": [
        ("incorrect", "")
    ],
    # Eigen's rational tanh under FMA is -0.99999976 at its clamp, so tanh-GELU at a -2e6 spike
    # is -0.55 where the reference is -0 (H100, s59 and s60; exactly -1 under numpy)
    "s57d_02_gelu_tanh_eigen_rational_tanh_coefficient_tuple_global": [("incorrect", "")],
    "s57d_24_gelu_tanh_folded_coefficients_tensor_scaled_at_init": [("incorrect", "")],
    "s58j_22_gelu_tanh_eigen_rational_tanh_typed_tuple": [("incorrect", "")],
}


def _config(policy: str):
    from common.config.evaluator import EvaluatorConfig

    return EvaluatorConfig.model_validate(
        {
            "device": "cuda",
            "children": CHILDREN,
            "timeout_s": 180,
            "policy": {"name": policy},
            "sandbox": CGROUP,
        }
    )


@pytest.fixture(scope="module")
def honest_verdicts():
    """Every file evaluated under its policy, CHILDREN at a time (as a worker runs them)."""
    from concurrent.futures import ThreadPoolExecutor

    from common.messages import EvalSettings
    from common.problemset import builtin_problem
    from evaluator.pipeline import Evaluator

    with Evaluator(_config("paper")) as paper, Evaluator(_config("strict")) as strict:

        def one(item):
            path, problem, policy = item
            t0 = time.monotonic()
            verdict = (strict if policy == "strict" else paper).evaluate(
                builtin_problem(problem),
                path.read_text(),
                EvalSettings(device="cuda", timeout_s=180, trials=2),
            )
            print(
                f"  {path.parent.name}/{path.stem} ({problem}, {policy}): {verdict.status} reward "
                f"{verdict.reward:.3f} speedup {verdict.speedup} coverage {verdict.coverage} in "
                f"{time.monotonic() - t0:.1f} s "
                f"{ ({k: round(v, 1) for k, v in verdict.phase_seconds.items()}) }"
                + ("" if verdict.status == "ok" else f"\n    {verdict.feedback[:400]}"),
                flush=True,
            )
            return path.stem, verdict

        with ThreadPoolExecutor(CHILDREN) as pool:
            return dict(pool.map(one, FILES))


@pytest.mark.parametrize("item", FILES, ids=lambda f: f"{f[0].parent.name}/{f[0].stem}")
def test_honest_file_is_ok_on_the_gpu(item, honest_verdicts):
    verdict = honest_verdicts[item[0].stem]
    accepted = (
        AT_GPU_SIZE.get(item[0].stem) or WRONG.get(item[0].stem) or PLATFORM.get(item[0].stem)
    )
    if accepted:
        assert any(
            verdict.status == status and (not hack or hack in verdict.hacks)
            for status, hack in accepted
        ), (verdict.status, verdict.feedback)
        return
    assert verdict.status == "ok" and verdict.details["policy"] == item[2], verdict.feedback
    assert verdict.reward > 0.5 and verdict.coverage is not None and verdict.coverage > 0, (
        verdict.reward,
        verdict.coverage,
    )
