"""The policy's gates on run-time evidence (evaluator.gates): where PyTorch computed what
forward returns from what PyTorch computed, the kernels the result needs must hold a share
of the device time; each kernel is knocked out alone, and one whose absence leaves the result
right is a decoy whose time does not count (red team, session 23: a one-element flag kernel
gating `torch.relu(x)`, plus a Triton relu into a scratch buffer nobody reads, was ok)."""
from __future__ import annotations

from conftest import fixture_problem

from evaluator.gates import live_coverage, own_kernels

# an honest split: a Triton kernel computes the global sum of squares (it reads every
# element), PyTorch scales by its rsqrt (so forward returns what PyTorch computed from what it
# computed: gated, and the kernel's share of the work clears the gate)
_NORM_THEN_TORCH = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sumsq(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x * x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        s = torch.zeros(1, device=x.device, dtype=torch.float32)
        _sumsq[(triton.cdiv(x.numel(), 4096),)](x, s, x.numel(), BLOCK=4096)
        return x * torch.rsqrt(s)
'''

# the same, with the norm computed by PyTorch and a Triton kernel of pure padding beside a flag
_PADDED_FLAG = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _flag(f_ptr):
    tl.store(f_ptr, 1.0)


@triton.jit
def _square(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        f = torch.zeros(1, device=x.device, dtype=torch.float32)
        _flag[(1,)](f)
        scratch = torch.empty_like(x)
        _square[(triton.cdiv(x.numel(), 4096),)](x, scratch, x.numel(), BLOCK=4096)
        return (x / torch.norm(x, p="fro")) * f
'''


def test_an_honest_triton_reduction_that_pytorch_finishes_is_ok(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("frobenius"), _NORM_THEN_TORCH, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["decoy_kernels"] == [] and verdict.coverage >= 0.1


def test_a_flag_kernel_beside_padding_is_not_ok(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("frobenius"), _PADDED_FLAG, settings)
    assert verdict.status == "hack" and verdict.hacks == ["triton_not_needed"], verdict.feedback
    assert verdict.details["decoy_kernels"] == ["_square"] and verdict.reward == 0.0


def test_live_coverage_moves_the_decoys_time_out_of_the_candidates_share():
    cov = {"coverage": 0.5, "candidate_time_s": 2.0, "candidate_kernels": {"pad": 1.5, "real": 0.5}}
    assert live_coverage(cov, ["pad"])["coverage"] == 0.125
    assert live_coverage(cov, []) is cov
    assert live_coverage({"coverage": 0.5, "candidate_time_s": 2.0}, ["pad"])["coverage"] == 0.0


def test_own_kernels_are_the_candidate_modules_launched_kernels():
    trials = [{"launches": [["cand", "b"], ["triton.ops", "lib"]]}, {"launches": [["cand", "a"], ["cand", "b"]]}]
    assert own_kernels(trials, "cand") == ["a", "b"]
