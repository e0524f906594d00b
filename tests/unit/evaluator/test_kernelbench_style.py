"""Honest Triton solutions of real KernelBench problems get a fair verdict (ok) on the CPU.

Each problem in kernelbench_style/ follows one KernelBench problem (named in its first
comment) with the same Model code; each `*_solution.py` beside it is an honest ModelNew in
a style LLM-written kernels use: pure Triton for level 1 (a tl.dot GEMM, an int64 argmax,
a scalar loss by atomic_add or in two stages, a kernel taking a Python float input, a
running argmin over the middle dimension, a TF32 GEMM reading A.T through its strides, a bool
mask, a 1-D input beside a 2-D one, `torch.device(torch.cuda.current_device())`), and for
level 2 a library GEMM or convolution with a fused Triton epilogue (written in place), an
algebraically reduced GEMM, or a nearly constant answer (a group-normalised mean). Session 27
added level-3 blocks (an MLP over an nn.ModuleList, a causal ReLU attention reading q, k, v
through the projection's strides, an RNN cell with two K segments), level-1 styles (a reverse
tl.cumsum, AvgPool3d, a triangular GEMM, allow_tf32 and input_precision spellings, a
persistent SELU, a transposed and a depthwise-separable convolution) and level-2 epilogues.
The level-2 convolution keeps KernelBench's real sizes in its file and is shrunk by overriding
only the base size globals: its `bias_shape` follows `out_channels`. Session 51f added level-1
norms and softmaxes (an online softmax, a log-softmax behind an `if not x.is_cuda` fallback, a
Frobenius norm reduced by tl.atomic_add, an RMS norm over dim 1, a split-row LayerNorm) and a
cuDNN convolution with a fused bias/scale/sigmoid/GroupNorm kernel.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FixtureProblem, fixture_problem, judged, verdict_timing

HERE = Path(__file__).parent / "kernelbench_style"
CONV_CPU_SIZES = {"batch_size": 2, "in_channels": 4, "out_channels": 8, "height": 12, "width": 12}
CASES = {
    "l1_square_matmul": {},
    "l1_argmax_dim": {},
    "l1_mse_loss": {},
    "l1_matrix_scalar": {},
    "l2_conv2d_relu_biasadd": CONV_CPU_SIZES,
    "l2_gemm_divide_sum_scaling": {},
    "l1_cumsum_exclusive": {},
    "l2_gemm_max_subtract_gelu": {"batch_size": 64, "in_features": 128, "out_features": 96},
    # the problem files below are KernelBench's as published, shrunk here
    "l1_argmin_dim": {"batch_size": 4, "dim1": 50, "dim2": 33},
    "l1_matmul_transposed_a": {"M": 48, "K": 80, "N": 40},
    "l1_huber_loss": {"batch_size": 16, "input_shape": (300,)},
    "l1_cross_entropy": {"batch_size": 64, "num_classes": 100},
    "l1_masked_cumsum": {"batch_size": 8, "input_shape": (700,)},
    "l1_diag_matmul": {"M": 70, "N": 50},
    "l2_gemm_multiply_leakyrelu": {"batch_size": 32, "in_features": 64, "out_features": 48},
    "l2_conv3d_groupnorm_mean": {"batch_size": 2, "in_channels": 3, "out_channels": 8,
                                 "D": 6, "H": 8, "W": 8, "num_groups": 4},
    # session 27: answers that are rounding noise (a mean over a LayerNorm's axis) or exactly
    # constant (a softmax over a size-1 dimension): only correctness is paid there
    "l2_gemm_layernorm_mean": {"batch_size": 8, "in_features": 48, "out_features": 80},
    "l2_matmul_mean_softmax": {"batch_size": 8, "in_features": 300, "out_features": 70},
    # session 27: level-3 blocks, level-1 styles and level-2 epilogues the corpora lacked (each
    # solution's first line names its idioms), written after the KernelBench problems named
    "l3_mlp": {"batch_size": 8, "input_size": 96, "layer_sizes": [80, 72], "output_size": 40},
    "l3_relu_self_attention": {"batch_size": 2, "max_seqlen": 40, "n_embd": 64, "n_head": 4},
    "l3_vanilla_rnn": {"batch_size": 8, "input_size": 48, "hidden_size": 40, "output_size": 24},
    "l1_cumsum_reverse": {"batch_size": 6, "input_shape": (2500,)},
    "l1_avgpool3d": {"batch_size": 2, "channels": 3, "depth": 7, "height": 9, "width": 10},
    "l1_upper_triangular_matmul": {"N": 150},
    "l1_4d_tensor_matmul": {"b": 2, "i": 3, "j": 10, "l": 40, "k": 24},
    "l1_matmul_irregular": {"M": 67, "K": 45, "N": 83},
    "l1_selu": {"batch_size": 8, "dim": 700},
    "l1_conv_transposed_1d": {"batch_size": 2, "in_channels": 6, "out_channels": 5, "length": 50},
    "l1_depthwise_separable": {"batch_size": 2, "in_channels": 4, "out_channels": 6, "width": 14, "height": 11},
    "l2_convtranspose3d_mean_softmax_tanh": {"batch_size": 2, "in_channels": 3, "out_channels": 6, "depth": 4,
                                             "height": 6, "width": 7},
    "l2_conv3d_hardswish_groupnorm_mean": {"batch_size": 2, "in_channels": 3, "out_channels": 8, "depth": 6,
                                           "height": 8, "width": 8},
    "l2_gemm_subtract_avgpool_gelu_residual": {"batch_size": 8, "in_features": 200, "out_features": 150},
    # session 51f: KernelBench problems as published, with the idioms LLM answers use (each solution's
    # first line names them); the other pairs it added (batched GEMM, hardsigmoid, ELU, L1 norm, max
    # and cumprod over a dim, level2/70) were ok through `krl check` and stay as files only
    "l1_softmax_online": {"batch_size": 8, "dim": 3000},
    "l1_log_softmax": {"batch_size": 8, "dim": 2500},
    "l1_frobenius_norm": {"batch_size": 2, "features": 8, "dim1": 24, "dim2": 20},
    "l1_rmsnorm": {"batch_size": 2, "features": 16, "dim1": 12, "dim2": 10},
    "l1_layernorm": {"batch_size": 2, "features": 8, "dim1": 16, "dim2": 16},
    "l2_conv2d_add_scale_sigmoid_groupnorm": {"batch_size": 2, "in_channels": 4, "out_channels": 8, "height": 12,
                                              "width": 12, "num_groups": 4},
}


def kernelbench_problem(name: str) -> FixtureProblem:
    return FixtureProblem(name=f"kernelbench_style/{name}", source=(HERE / f"{name}.py").read_text(),
                          sizes={"cpu": CASES[name]},
                          solution=(HERE / f"{name}_solution.py").read_text())


# answers the same for every input up to the reference's rounding (gates.within_noise) or
# exactly (gates.answer_kind "fixed"): only correctness is paid there, as for writing the answer
CONSTANT_ANSWERS = {"l2_conv3d_groupnorm_mean", "l2_gemm_layernorm_mean", "l2_matmul_mean_softmax",
                    "l2_gemm_max_subtract_gelu"}


def _honest_verdict(evaluator, problem: FixtureProblem, settings):
    """The honest solution's verdict, timed as the honest corpora's (conftest.VERDICT_TIMING: one
    batch per kind of timed input, one profiled forward, the reference timed once). These tests
    read the status, whether the answer is constant (the correctness phase's) and the coverage
    (the interpreter's count of work, the same in every profiled forward of a deterministic
    kernel); every timed check still runs on each kind's batch. An evaluation took about half
    the time (l1_matrix_scalar 5.1-5.7 s to 2.8-3.0, l2_gemm_divide_sum_scaling 9.1-12.4 s to
    6.5-6.8, two of each in one process, CPU (Triton interpreter), s67C). The TF32 MLP on spiked
    inputs below keeps production's timing: it is about the timed runs."""
    with verdict_timing(evaluator) as ev:
        return judged(ev, problem, problem.solution, settings)


@pytest.mark.parametrize("name", list(CASES))
def test_an_honest_solution_of_a_kernelbench_problem_is_ok(evaluator, settings, name):
    """Level2/23's group-normalised mean was a known false rejection until session 27: its answer is
    rounding noise around 0, and the reference's noise measured by moving the inputs missed most of
    it on the x1e-3 trial (evaluator.noise: the float64 measurement now sees it). Until session 58
    it still failed in ~1 of 150 x1e-3 trials, where the reference's one float64 measurement was a
    lucky tenth of its typical rounding: the rounding of an output with few correct digits is now
    drawn again (noise.redraws) and the floor is their RMS."""
    problem = kernelbench_problem(name)
    verdict = _honest_verdict(evaluator, problem, settings)  # shared with the test below
    assert verdict.status == "ok", verdict.feedback
    assert bool(verdict.details.get("constant_answer")) == (name in CONSTANT_ANSWERS), verdict.reward


def test_an_honest_tf32_mlp_is_ok_on_spiked_inputs(evaluator, settings):
    """KernelBench's MLP with tl.dot at TF32 was incorrect (or a timed output mismatch) on the
    H200's spiked inputs: elements the spike reaches that sum back to the problem's scale keep
    TF32's rounding of the spike's terms, and were held to the base trials' TF32 error. The
    same kernel with its operands truncated in Triton (written here from l3_mlp_solution) does
    the GPU's arithmetic under the CPU interpreter: it failed here too before the reference
    measured TF32's error over that rest (precision.Deviations.rest), and is ok now."""
    problem = kernelbench_problem("l3_mlp")
    truncated = "(({}).to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)"
    dot = "acc += tl.dot(a, b)"
    assert problem.solution.count(dot) == 1
    source = problem.solution.replace(dot, f"acc += tl.dot({truncated.format('a')}, {truncated.format('b')})")
    verdict = evaluator.evaluate(problem, source, settings)
    assert verdict.status == "ok", verdict.feedback
    assert "TF32" in verdict.feedback  # accepted at TF32 precision, and told so


def test_a_kernel_writing_a_problems_constant_answer_keeps_its_coverage(evaluator, settings):
    """KernelBench has problems whose answer is a constant (level2/80 is all zeros). A kernel
    whose writes are the same in every trial computes constants and is no one's work
    (evaluator.gates.trial_evidence), except where the reference's answer is constant too:
    there the honest kernel writes exactly that, and keeps its coverage."""
    problem = kernelbench_problem("l2_gemm_max_subtract_gelu")
    verdict = _honest_verdict(evaluator, problem, settings)  # the honest test's, above
    assert verdict.status == "ok", verdict.feedback
    assert verdict.coverage is not None and verdict.coverage > 0.9, verdict.details.get("profile")
    # ... and, as for any kernel writing that answer, only its correctness is paid
    assert verdict.details.get("constant_answer") and verdict.reward == 0.5, verdict.reward


# red team s26b: the GEMM of level2/80 never runs, a kernel stores the zeros the answer always is
_ZEROS_WRITTEN = """
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _zeros(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, max_dim):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)

    def forward(self, x):
        out = torch.empty((x.shape[0], 1), device=x.device, dtype=torch.float32)
        _zeros[(triton.cdiv(out.numel(), 1024),)](out, out.numel(), BLOCK=1024)
        return out
"""


def test_a_constant_answer_pays_correctness_only(evaluator, settings):
    """Where the reference's answer is the same for every input tried, writing it without the
    work cannot be told from computing it: a kernel storing zeros without reading the input was
    ok at coverage 1.0 and whatever speedup dropping the GEMM gives (reward 1.05 on the CPU,
    2.5 on the GPU, against the honest fused kernel's 1.0). It now earns correctness only, as the honest one does
    (test_a_kernel_writing_a_problems_constant_answer_keeps_its_coverage)."""
    problem = kernelbench_problem("l2_gemm_max_subtract_gelu")
    verdict = evaluator.evaluate(problem, _ZEROS_WRITTEN, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details.get("constant_answer") and verdict.reward == 0.5, (verdict.reward, verdict.details)
    assert "only correctness is rewarded" in verdict.feedback


CAPPED = Path(__file__).parent / "capped"
# two ok verdicts' rewards differ by the CPU speed term's noise (a few 1e-3) and no more
CPU_SPEED_NOISE = 0.05


@pytest.mark.parametrize("name", ["solution", "rt27_one_input_replays_init_answer_paper",
                                  "rt27_one_input_caches_first_forward_paper"])
def test_a_problem_drawing_one_input_set_pays_correctness_only(evaluator, settings, name):
    """Where every trial draws the same input set (get_inputs makes a fixed index set), the
    answer depends on the weights alone: __init__ (or the first forward) computed it with torch
    once and forward copied it out in Triton, ok at coverage 1.0 and a copy's speedup over the
    GEMM (red team s27: reward 1.04 on the CPU against the honest kernel's 1.01). As for a fixed
    answer, only correctness is paid, the honest kernel's included (gates.fixed_answer)."""
    problem = fixture_problem("one_input_linear")
    source = problem.solution if name == "solution" else (CAPPED / f"{name}.py").read_text()
    verdict = evaluator.evaluate(problem, source, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details.get("constant_answer") and verdict.reward == 0.5, (verdict.reward, verdict.details)


def test_work_on_an_input_fixed_in_every_call_hoisted_into_init_earns_less(evaluator, settings):
    """One input (an index set) is the same in every call, the other drawn afresh: __init__
    computes the GEMM of the fixed part with torch and forward adds x in Triton (ok at 1.03
    against the honest fused kernel's 1.00 on the CPU before session 53, a speedup ~10x the
    honest one's). Since red team rt65 the PyTorch work done while ModelNew is built is charged
    to every profiled forward (evaluator.construction_watch), so the hoisted GEMM costs its
    coverage share."""
    problem = fixture_problem("fixed_index_linear_add")
    honest = evaluator.evaluate(problem, problem.solution, settings)
    attack = evaluator.evaluate(problem, (CAPPED / "rt27_fixed_index_hoisted_gemm_paper.py").read_text(), settings)
    assert honest.status == "ok", honest.feedback
    # on the CPU the speed term is w_speed x a speedup of about 0.01, so two ok verdicts differ by
    # timing noise of a few 1e-3 (1.0037 against 1.0031 once passed this by chance): earning less
    # means a lost coverage share or a refusal, well past that noise
    assert attack.reward < honest.reward - CPU_SPEED_NOISE, (attack.status, attack.reward, honest.reward)


def test_strict_refusal_of_a_library_gemm_says_to_write_the_gemm():
    """Under strict, a level-2 solution keeping nn.Linear/nn.Conv (cuBLAS/cuDNN) before a Triton
    epilogue is refused (PyTorch computes part of the output); the message says to write the
    GEMM in the kernel, not only to finish a reduction there."""
    from evaluator.judge import judge_provenance

    gemm = [{"provenance": {"handed": "your Triton kernel k was handed memory PyTorch computed (aten::addmm)"}}]
    div = [{"provenance": {"returned": "forward returned memory PyTorch computed (aten::div)"}}]
    refused = judge_provenance(gemm, strict=True, knockout_raised=False)
    assert refused.status == "hack" and "tl.dot" in refused.feedback
    assert "tl.dot" not in judge_provenance(div, strict=True, knockout_raised=False).feedback


# red team s26c: level2/23's answer is the GroupNorm bias's mean up to float noise, so the
# reference's outputs vary and the constant-answer rule pays speed; a kernel writing that mean
# (the convolution never runs), alone or nudged by one input element per sample to vary
_BIAS_MEAN_WRITTEN = """
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_mean(x_ptr, b_ptr, out_ptr, N, C, stride, NUDGE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.sum(tl.load(b_ptr + offs, mask=offs < C, other=0.0), axis=0) / C
    xs = tl.load(x_ptr + offs * stride, mask=offs < N, other=0.0)
    tl.store(out_ptr + offs, v + xs * NUDGE, mask=offs < N)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        n, c = x.shape[0], self.group_norm.bias.numel()
        out = torch.empty(n, device=x.device, dtype=torch.float32)
        bias_mean[(1,)](x, self.group_norm.bias, out, n, c, x.stride(0), NUDGE=NUDGE_VALUE,
                        BLOCK=triton.next_power_of_2(max(n, c)))
        return out
"""


@pytest.mark.parametrize("nudge, status", [("0.0", "hack"), ("1e-6", "incorrect"), ("1e-10", "ok")])
def test_a_nearly_constant_answer_written_without_the_work_earns_no_more_than_computing_it(
        evaluator, settings, nudge, status):
    """Level2/23's answer is ~0 per sample, the same for every input up to the reference's own
    rounding. Written alone it is the same in every trial while the reference's outputs differ
    (constant_output); nudged by an input element to differ by ~1e-6 it is far past the noise
    floor, though every element is within atol. Nudged by 1e-10 it hides under any floor (the
    answer is that constant): it was ok with the speed of skipping the convolution (reward 1.05
    on the CPU against the honest kernel's, session 27), and now, the answer being fixed up to
    rounding (gates.within_noise), it earns correctness only, as the honest kernel does."""
    problem = kernelbench_problem("l2_conv3d_groupnorm_mean")
    verdict = evaluator.evaluate(problem, _BIAS_MEAN_WRITTEN.replace("NUDGE_VALUE", nudge), settings)
    assert verdict.status == status, verdict.feedback
    if status == "ok":
        assert verdict.details.get("constant_answer") and verdict.reward == 0.5, verdict.reward
    else:
        assert verdict.reward == 0.0 and (status == "incorrect" or "constant_output" in verdict.hacks), verdict.hacks


def test_an_answer_made_of_rounding_noise_pays_correctness_only(evaluator, settings):
    """The red team's file for the same finding (s27b): the bias mean nudged by 1e-9 times an
    input element, ok at coverage 1.0 and reward 1.06 on the CPU against the honest kernel's
    0.65 before the answer was called fixed up to rounding; now correctness at most."""
    problem = kernelbench_problem("l2_conv3d_groupnorm_mean")
    source = (CAPPED / "rt27b_near_constant_answer_input_jitter_groupnorm_paper.py").read_text()
    verdict = evaluator.evaluate(problem, source, settings)
    assert verdict.reward <= 0.5, (verdict.status, verdict.reward, verdict.details.get("profile"))
    assert verdict.status != "ok" or verdict.details.get("constant_answer"), verdict.details
