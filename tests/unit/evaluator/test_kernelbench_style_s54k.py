"""Honest round s54k: Triton answers to 25 KernelBench problems (levels 1-3) the corpora lacked.

kernelbench_style/s54k_NN_<what>.py are KernelBench problem files as published (the first
comment names each; the sizes below shrink only their size globals, the derived ones such as
`bias_shape = (out_channels, 1, 1)` follow); s54k_NN_<what>_solution.py are ModelNew answers in
the styles LLM answers use (each first line names its idioms), numbers 26-37 variants of
another number's problem (VARIANTS). Level 1: a symmetric GEMM (also read through the
problem's symmetry contract), split-K with atomics, MaxPool3d with padding and dilation,
KL divergence (row partials + torch sum, or one atomic scalar), HardTanh behind a CPU
fallback and by tl.clamp, Softsign (autotuned; in an autograd.Function), direct, depthwise and
im2col+GEMM convolutions, erf GELU (also a grid-stride loop under inference_mode), a one-tile
K GEMM. Level 2: cuBLAS/cuDNN plus a fused Triton epilogue (Mish twice, GroupNorm + Hardtanh,
GroupNorm + row min + a broadcast bias, AvgPool + GELU + max, training-mode BatchNorm with its
running statistics, min/bias/scale, pool + sigmoid + sum by atomics, tanh + maxpool, a
transposed convolution's in-place epilogue autotuned with restore_value), whole fused GEMMs
(block pointers + heuristics + no_grad), module-level TF32 flags. Level 3: minGPT's causal
attention (q, k, v read through the projection's strides; or contiguous heads), a vanilla
RNN (per-step kernels, or one persistent program over the whole sequence).

Added later in the round: a training-mode BatchNorm in Triton (level3/13 DenseNet transition,
level2/73) whose running statistics are updated through a local alias of the module, a helper
handed `self.bn`, or a loop over `self.transition.modules()` (46, 52, 53: refused as
monkey_patch before this round, now judged as the chain on self they name:
evaluator.static_stores), MaxPool3d padded by F.pad(-inf), a channels_last convolution's
NHWC-strided epilogue, and level1/81's strided, dilated transposed convolution in gather form
(clamped, and with masked negative // and %).

All were ok through the evaluator on the CPU interpreter at the sizes below (the test's own
`evaluator` fixture, as the s53k round; 2-67 s each on a loaded 2-core box). Rewards are the
design's: ~1.0 where all the work is in Triton, 0.55-0.82 where cuBLAS/cuDNN does the GEMM or
convolution beside a Triton epilogue, and 0.50 for s54k_09 (torch's F.unfold + a Triton GEMM):
its im2col, priced at its decomposition's parts, costs more than the reference's whole
convolution, so the coverage bound (evaluator.stopwatch `profiled_coverage`) counts 0% of the
problem's work as the candidate's though 43% of its forward runs in Triton. Every solution
must pass the static layer; a few with distinct idioms run whole here (FULL); the rest stay
as files.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FixtureProblem, verdict_timing

from common.config.evaluator import StaticConfig
from evaluator.static_checks import check_source

HERE = Path(__file__).parent / "kernelbench_style"
SIZES = {
    "s54k_01_symmetric_matmul": {"N": 72},
    "s54k_02_matmul_large_k": {"M": 40, "N": 48, "K": 8192},
    "s54k_03_maxpool3d": {"batch_size": 2, "channels": 3, "dim1": 12, "dim2": 13, "dim3": 11},
    "s54k_04_kldiv_loss": {"batch_size": 16, "input_shape": (1000,)},
    "s54k_05_hardtanh": {"batch_size": 8, "dim": 3000},
    "s54k_06_softsign": {"batch_size": 8, "dim": 3000},
    "s54k_07_conv1d": {"batch_size": 2, "in_channels": 6, "out_channels": 10, "length": 300},
    "s54k_08_depthwise_conv2d": {"batch_size": 2, "in_channels": 4, "width": 18, "height": 20},
    "s54k_09_conv1d_dilated_strided": {"batch_size": 2, "in_channels": 8, "out_channels": 12, "length": 400},
    "s54k_10_gelu": {"batch_size": 8, "dim": 3000},
    "s54k_11_matmul_small_k": {"M": 96, "N": 80},
    "s54k_12_matmul_mish_mish": {"batch_size": 32, "in_features": 128, "out_features": 96},
    "s54k_13_gemm_groupnorm_hardtanh": {"batch_size": 16, "in_features": 64, "out_features": 128, "num_groups": 8},
    "s54k_14_gemm_scaling_hardtanh_gelu": {"batch_size": 32, "in_features": 128, "out_features": 96},
    "s54k_15_gemm_lse_leakyrelu_gelu": {"batch_size": 32, "in_features": 128, "out_features": 200},
    "s54k_16_gemm_groupnorm_min_biasadd": {"batch_size": 16, "in_features": 64, "out_features": 128,
                                           "num_groups": 16},
    "s54k_17_matmul_add_swish_tanh_gelu_hardtanh": {"batch_size": 32, "in_features": 128, "out_features": 96},
    "s54k_18_matmul_avgpool_gelu_scale_max": {"batch_size": 16, "in_features": 64, "out_features": 256},
    "s54k_19_matmul_batchnorm_biasadd_divide_swish": {"batch_size": 32, "in_features": 64, "out_features": 96},
    "s54k_20_conv2d_min_add_multiply": {"batch_size": 2, "in_channels": 3, "out_channels": 8, "height": 12,
                                        "width": 12},
    "s54k_21_conv2d_avgpool_sigmoid_sum": {"batch_size": 2, "in_channels": 3, "out_channels": 8, "height": 18,
                                           "width": 18},
    "s54k_22_conv2d_tanh_scaling_biasadd_max": {"batch_size": 2, "in_channels": 3, "out_channels": 8,
                                                "height": 18, "width": 18},
    "s54k_23_convtranspose2d_subtract_tanh": {"batch_size": 2, "in_channels": 4, "out_channels": 6, "height": 8,
                                              "width": 8},
    "s54k_24_mingpt_causal_attention": {"batch_size": 2, "max_seqlen": 64, "seq_len": 40, "n_embd": 64,
                                        "n_head": 4},
    "s54k_25_vanilla_rnn_hidden": {"batch_size": 4, "input_size": 48, "hidden_size": 40, "output_size": 24,
                                   "sequence_length": 6},
    "s54k_46_densenet_transition": {"batch_size": 2, "num_input_features": 8, "num_output_features": 12,
                                    "height": 16, "width": 16},
    "s54k_47_conv2d_batchnorm_scaling": {"batch_size": 2, "in_channels": 3, "out_channels": 8, "height": 14,
                                         "width": 14},
    "s54k_50_conv_transposed2d_strided_dilated": {"batch_size": 2, "in_channels": 4, "out_channels": 6,
                                                  "height_in": 6, "width_in": 9},
}
# solution stem (without _solution) -> its problem's stem, where they differ
VARIANTS = {
    "s54k_26_symmetric_matmul_bt_rows": "s54k_01_symmetric_matmul",
    "s54k_27_matmul_mish_mish_libdevice": "s54k_12_matmul_mish_mish",
    "s54k_28_gemm_scaling_hardtanh_gelu_block_ptr": "s54k_14_gemm_scaling_hardtanh_gelu",
    "s54k_29_vanilla_rnn_hidden_persistent": "s54k_25_vanilla_rnn_hidden",
    "s54k_30_gelu_grid_stride": "s54k_10_gelu",
    "s54k_31_kldiv_loss_atomic_batchmean": "s54k_04_kldiv_loss",
    "s54k_32_matmul_mish_mish_global_tf32_flags": "s54k_12_matmul_mish_mish",
    "s54k_33_hardtanh_tl_clamp": "s54k_05_hardtanh",
    "s54k_34_conv2d_min_add_multiply_fused_conv_bias": "s54k_20_conv2d_min_add_multiply",
    "s54k_35_convtranspose2d_subtract_tanh_inplace_autotune": "s54k_23_convtranspose2d_subtract_tanh",
    "s54k_36_softsign_autograd_function": "s54k_06_softsign",
    "s54k_37_mingpt_causal_attention_contiguous_heads": "s54k_24_mingpt_causal_attention",
    "s54k_38_matmul_large_k_autotune_pre_hook": "s54k_02_matmul_large_k",
    "s54k_39_conv1d_none_bias_ptr": "s54k_07_conv1d",
    "s54k_40_gemm_groupnorm_hardtanh_welford_reduce": "s54k_13_gemm_groupnorm_hardtanh",
    "s54k_41_matmul_small_k_swizzle2d": "s54k_11_matmul_small_k",
    "s54k_42_matmul_avgpool_gelu_scale_max_reshape": "s54k_18_matmul_avgpool_gelu_scale_max",
    "s54k_43_kldiv_loss_two_stage_0d": "s54k_04_kldiv_loss",
    "s54k_44_matmul_add_swish_tanh_gelu_hardtanh_init_cached_wt": "s54k_17_matmul_add_swish_tanh_gelu_hardtanh",
    "s54k_45_gemm_scaling_hardtanh_gelu_raw_parameters": "s54k_14_gemm_scaling_hardtanh_gelu",
    "s54k_48_maxpool3d_pad_neg_inf": "s54k_03_maxpool3d",
    "s54k_49_conv2d_tanh_scaling_biasadd_max_channels_last": "s54k_22_conv2d_tanh_scaling_biasadd_max",
    "s54k_51_conv_transposed2d_negative_division_masked": "s54k_50_conv_transposed2d_strided_dilated",
    "s54k_52_conv2d_batchnorm_scaling_stats_helper": "s54k_47_conv2d_batchnorm_scaling",
    "s54k_53_densenet_transition_modules_loop": "s54k_46_densenet_transition",
}
SOLUTIONS = sorted(p.name[:-len("_solution.py")] for p in HERE.glob("s54k_*_solution.py"))
# run whole on the CPU (1-2 minutes with the evaluator's start on a loaded 2-core box, 10 when
# other suites share it): split-K atomics into a zeroed output, B read through the problem's
# symmetry contract (the trials keep get_inputs' symmetric draws), module-level TF32 flags
# beside a cuBLAS GEMM, an in-place epilogue autotuned with restore_value, and BatchNorm's
# training statistics in Triton with the running statistics kept up to date through a local
# alias (`bn = self.transition[0]`) and through a helper handed `self.bn`, both refused as
# monkey_patch before this round (evaluator.static_stores `_self_alias`, `_self_param`; the
# modules() loop of s54k_53 and the rest were ok through the same evaluator and stay as files)
FULL = ["s54k_02_matmul_large_k", "s54k_26_symmetric_matmul_bt_rows", "s54k_32_matmul_mish_mish_global_tf32_flags",
        "s54k_35_convtranspose2d_subtract_tanh_inplace_autotune", "s54k_46_densenet_transition",
        "s54k_52_conv2d_batchnorm_scaling_stats_helper"]


def s54k_problem(solution: str) -> FixtureProblem:
    name = VARIANTS.get(solution, solution)
    return FixtureProblem(name=f"kernelbench_style/{name}", source=(HERE / f"{name}.py").read_text(),
                          sizes={"cpu": SIZES[name]}, solution=(HERE / f"{solution}_solution.py").read_text())


def test_every_solution_has_its_problem_and_sizes():
    assert len(SOLUTIONS) >= 25
    for solution in SOLUTIONS:
        assert VARIANTS.get(solution, solution) in SIZES, solution
        assert (HERE / f"{VARIANTS.get(solution, solution)}.py").exists(), solution


@pytest.mark.parametrize("solution", SOLUTIONS)
def test_an_s54k_solution_passes_the_static_checks(solution):
    report = check_source((HERE / f"{solution}_solution.py").read_text(), StaticConfig())
    assert report.status is None, [(f.code, f.line, f.message) for f in report.findings]
    assert report.kernels


@pytest.mark.slow
@pytest.mark.parametrize("solution", FULL)
def test_an_s54k_solution_is_ok_on_the_cpu_evaluator(evaluator, settings, solution):
    problem = s54k_problem(solution)
    with verdict_timing(evaluator) as ev:  # read: the status alone (conftest.VERDICT_TIMING)
        verdict = ev.evaluate(problem, problem.solution, settings)
    assert verdict.status == "ok", verdict.feedback
