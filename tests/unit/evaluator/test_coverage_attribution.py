"""evaluator.timing.attribute: which GPU kernel time counts as the candidate's (the GPU path
runs in tests/gpu; the attribution rule is plain data and is checked here)."""
from __future__ import annotations

from collections import Counter

import pytest

from evaluator.timing import attribute

GEMM = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute"


def test_own_kernels_count_by_name_and_launches():
    cov = attribute({"fused_epilogue": 1e-4, GEMM: 3e-4}, Counter({"fused_epilogue": 5, GEMM: 5}),
                    {"fused_epilogue"}, Counter({"fused_epilogue": 5}))
    assert cov["coverage"] == pytest.approx(0.25)
    assert "ambiguous" not in cov


def test_a_kernel_named_like_the_library_one_does_not_take_its_time():
    """The candidate names a one-line Triton kernel like the cuBLAS GEMM that torch.matmul
    runs: the profiler saw that name run twice per forward, the launch hook once."""
    cov = attribute({GEMM: 4e-4, "relu_kernel": 1e-4}, Counter({GEMM: 10, "relu_kernel": 5}),
                    {GEMM, "relu_kernel"}, Counter({GEMM: 5, "relu_kernel": 5}))
    assert cov["coverage"] == pytest.approx(0.2)
    assert cov["ambiguous"] == [GEMM]
    assert not next(k for k in cov["kernels"] if k["name"] == GEMM)["candidate"]


def test_kernels_launched_around_the_hook_are_not_the_candidates():
    cov = attribute({"mine": 1e-4}, Counter({"mine": 3}), {"mine"}, Counter())
    assert cov["coverage"] == 0.0 and cov["ambiguous"] == ["mine"]
