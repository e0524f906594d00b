"""PyTorch finishing memory the candidate's own kernels made (evaluator.candidate_made): what the
CPU meter counts as such, and how the coverage bound (evaluator.profiled_coverage) prices it.

An honest split-K matmul summed its three partials with torch; at the CPU's sizes that pass cost
more than the reference's whole GEMM, and the bound paid coverage 0 (honest round s58j_05,
reward 0.50). A sum over memory the kernels made is priced by its share of the problem's
arithmetic; a sum, or anything else, over the problem's inputs or a Triton copy of them keeps
the price of that work."""
from __future__ import annotations

import os

import pytest
import torch
import triton
import triton.language as tl

from evaluator import cpu_work, stopwatch

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


@triton.jit
def _mm_slices(a_ptr, b_ptr, p_ptr, M, N, K, k_len, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    s = tl.program_id(0)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, k_len, BK):
        rk = s * k_len + k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(p_ptr + s * M * N + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


M = N = 32
K = 96
SPLITS = 3
NAMES = {"_mm_slices", "_copy"}


def _split_k(args):
    a, b = args
    part = torch.empty((SPLITS, M, N))
    _mm_slices[(SPLITS,)](a, b, part, M, N, K, K // SPLITS, BM=32, BN=32, BK=32)
    return part.sum(0)


def _copy_then(op):
    def forward(args):
        x = args[0]
        y = torch.empty_like(x)
        _copy[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        return op(y)
    return forward


def _measure(forward, *inputs) -> dict:
    result = cpu_work.measure(forward, list(inputs), NAMES)
    assert result["error"] is None, result["error"]
    return result


@needs_interpreter
def test_a_sum_of_partials_the_kernels_wrote_is_finishing_work():
    a, b = torch.randn(M, K), torch.randn(K, N)
    run = _measure(_split_k, a, b)
    assert run["finish_flops"] == SPLITS * M * N and run["finish_unfused_s"] > 0
    torch.testing.assert_close(_split_k([a, b]), a @ b, rtol=1e-4, atol=1e-4)


@needs_interpreter
def test_a_cast_of_what_the_kernels_wrote_into_torch_zeros_is_finishing_work():
    """A split-K kernel's atomics land in torch.zeros (a factory, not torch.empty); the cast of
    the result is finishing work, a cast of part of it that the kernels left as zeros is not."""
    def forward(args):
        x = args[0]
        y = torch.zeros(x.numel() * 2)
        _copy[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        return y[:x.numel()].to(torch.float64), y[x.numel():].to(torch.float64)

    run = _measure(forward, torch.randn(300))
    assert run["finish_flops"] == 300


@needs_interpreter
def test_a_bias_and_relu_over_what_the_kernels_wrote_are_finishing_work():
    """A Triton GEMM's output, torch.relu(y + bias) (honest s59d_08): the bias row is 64 times
    smaller than the output; a same-sized tensor of PyTorch's beside it is not."""
    x = torch.randn(64, 48)
    run = _measure(_copy_then(lambda y: torch.relu(y + torch.ones(48))), x)
    assert run["finish_flops"] == 2 * x.numel()
    assert _measure(_copy_then(lambda y: torch.relu(y + torch.ones(64, 48))), x)["finish_flops"] == 0


@needs_interpreter
@pytest.mark.parametrize("forward", [
    lambda args: args[0].sum(0),  # the problem's input: PyTorch's work, as before
    _copy_then(torch.nn.functional.mish),  # a copy, then a product of torch's: no finishing op
    _copy_then(lambda y: (y * 2.0).sum(0)),  # a finishing op over PyTorch's own result
])
def test_torch_work_on_the_inputs_or_its_own_results_is_not_finishing(forward):
    assert _measure(forward, torch.randn(64, 48))["finish_flops"] == 0


@needs_interpreter
def test_a_sum_over_a_triton_copy_of_the_input_keeps_the_price_of_the_problem():
    """A row-sum problem whose kernel copies x and whose torch sums the copy: the sum is
    finishing work, but its flops are the reference's own, so the bound charges all of it."""
    x = torch.randn(64, 48)
    reference = cpu_work.measure(lambda args: args[0].sum(1), [x], set())
    run = _measure(_copy_then(lambda y: y.sum(1)), x)
    assert run["finish_flops"] >= reference["aten_flops"] > 0
    held = stopwatch.profiled_coverage([run] * 6, [reference] * 6)
    assert held["coverage"] == 0.0 and held["forward_share"] > 0.3


def _est(total: float, mine: float, **extra) -> dict:
    return {"coverage": mine / total, "estimated_time_s": total, "candidate_time_s": mine, **extra}


def test_the_bound_prices_finishing_work_by_its_share_of_the_problems_arithmetic():
    """s58j_05's numbers: the reference's GEMM estimated at 2.24e-8 s for 9.8e5 flops; the
    kernels 3.58e-8 s, the sum of three partials 2.67e-8 s for 16800 flops. The bound charged
    the sum its roofline price (more than the whole GEMM: coverage 0); it is 1.7% of the
    arithmetic, so the forward's own split (0.57) is paid."""
    reference = [_est(2.24e-8, 0.0, aten_flops=9.8e5)] * 6
    finish = {"finish_unfused_s": 2.67e-8, "finish_flops": 16800.0}
    split_k = [_est(6.25e-8, 3.58e-8, **finish)] * 6
    held = stopwatch.profiled_coverage(split_k, reference)
    assert held["reference_share"] == pytest.approx(1 - 16800 / 9.8e5)
    assert held["coverage"] == pytest.approx(3.58 / 6.25, rel=1e-3)
    # the same pass not over the candidate's own memory: priced as before
    assert stopwatch.profiled_coverage([_est(6.25e-8, 3.58e-8)] * 6, reference)["coverage"] == 0.0
    # a finishing pass with the reference's arithmetic or more: never below its roofline price
    whole = [_est(6.25e-8, 3.58e-8, finish_unfused_s=2.67e-8, finish_flops=2e6)] * 6
    assert stopwatch.profiled_coverage(whole, reference)["coverage"] == 0.0
    # a reference run without its flops (an older cache): no discount
    unknown = [_est(2.24e-8, 0.0)] * 6
    assert stopwatch.profiled_coverage(split_k, unknown)["coverage"] == 0.0
