# honest: fp16 matmul whose block config comes from a functools.cache'd table keyed by the device's compute capability (Hopper/Ampere/other), grouped ordering with tl.swizzle2d, tl.dot(..., out_dtype=tl.float32) accumulate, one rounding to fp16 at the store; launched under `with torch.cuda.device(a.device)`. problem: matmul/matmul_fp16
import functools
from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class GemmConfig(NamedTuple):
    block_m: int
    block_n: int
    block_k: int
    group_m: int
    num_warps: int
    num_stages: int


@functools.cache
def pick_config(capability: tuple) -> GemmConfig:
    major, _ = capability
    if major >= 9:  # Hopper
        return GemmConfig(128, 128, 64, 8, 8, 3)
    if major == 8:  # Ampere / Ada
        return GemmConfig(128, 64, 32, 8, 4, 4)
    return GemmConfig(64, 64, 32, 8, 4, 2)


@triton.jit
def fp16_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       GROUP_M: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    num_m = tl.num_programs(0)
    num_n = tl.num_programs(1)
    pid_m, pid_n = tl.swizzle2d(pid_m, pid_n, num_m, num_n, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] + k0 < K), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] + k0 < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b, out_dtype=tl.float32)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul_fp16(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    assert a.dtype == b.dtype == torch.float16
    M, K = a.shape
    K2, N = b.shape
    assert K == K2
    cfg = pick_config(torch.cuda.get_device_capability(a.device))
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, cfg.block_m), triton.cdiv(N, cfg.block_n))
    with torch.cuda.device(a.device):
        fp16_matmul_kernel[grid](a, b, c, M, N, K,
                                 a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                 BLOCK_M=cfg.block_m, BLOCK_N=cfg.block_n, BLOCK_K=cfg.block_k,
                                 GROUP_M=cfg.group_m, num_warps=cfg.num_warps, num_stages=cfg.num_stages)
    return c


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return matmul_fp16(a, b)
