"""The precision contract on the CPU evaluator, end to end: a float32 problem's matmul may
carry the error TF32 itself gives (judged against the truncated-TF32 reference the CPU
reference child computes too), and no more."""
from __future__ import annotations

from conftest import fixture_problem

_MATMUL = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a.to(tl.float16), b.to(tl.float16))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, a, b):
        a, b = a.contiguous(), b.contiguous()
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=torch.float32, device=a.device)
        _mm[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, BM=32, BN=32, BK=32)
        return c
'''

_BF16_LIBRARY = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.matmul(a.bfloat16(), b.bfloat16()).float()
        out = torch.empty_like(c)
        _copy[(triton.cdiv(c.numel(), 1024),)](c, out, c.numel(), BLOCK=1024)
        return out
'''


def test_a_matmul_with_float16_operands_is_accepted_at_tf32_precision_on_the_cpu(evaluator, settings):
    """Float16 operands keep TF32's 10 mantissa bits: a public level-1 solution that fed
    tl.dot float16 was incorrect on the CPU (its error was strictly judged there) and
    within TF32's contract on the GPU (honest round, session 17)."""
    verdict = evaluator.evaluate(fixture_problem("matmul_rand"), _MATMUL, settings)
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["precision"] == "tf32" and "TF32 precision" in verdict.feedback


def test_a_matmul_in_bfloat16_is_still_incorrect_on_a_float32_problem(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("matmul_rand"), _BF16_LIBRARY, settings)
    assert verdict.status == "incorrect", verdict.feedback
