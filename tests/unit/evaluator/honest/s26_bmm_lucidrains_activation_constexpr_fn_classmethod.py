# honest: lucidrains' triton-transformer bmm (triton_transformer/bmm.py) brought to today's Triton: a (batch, tiles) 2-D grid lambda, grouped tile order with GROUP_SIZE_M fixed in the kernel, pointers walked by += BLOCK_SIZE_K * stride, an ACTIVATION constexpr that is a @triton.jit function or None (`if ACTIVATION is not None: o = ACTIVATION(o)`), an exists() helper, a 2-D right operand broadcast by unsqueeze(0).expand(B, -1, -1), an autograd.Function written with @classmethod forward(self, ctx, ...) and bound as `triton_bmm_fn = _bmm.apply`. problem: matmul/bmm
import torch
import torch.nn as nn
from torch import autograd
import triton
import triton.language as tl


def exists(val):
    return val is not None


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=5, num_warps=2),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def bmm_kernel(x_ptr, y_ptr, o_ptr, M, N, K,
               stride_al, stride_am, stride_ak, stride_bl, stride_bk, stride_bn, stride_ol, stride_om, stride_on,
               BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
               ACTIVATION: tl.constexpr = None):
    GROUP_SIZE_M = 8
    pid_batch = tl.program_id(0)
    pid = tl.program_id(1)

    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak + pid_batch * stride_al)
    y_ptrs = y_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn + pid_batch * stride_bl)

    o = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        x = tl.load(x_ptrs, mask=(offs_am[:, None] < M) & (offs_k[None, :] < K - k), other=0.0)
        y = tl.load(y_ptrs, mask=(offs_k[:, None] < K - k) & (offs_bn[None, :] < N), other=0.0)
        o += tl.dot(x, y)
        x_ptrs += BLOCK_SIZE_K * stride_ak
        y_ptrs += BLOCK_SIZE_K * stride_bk

    if ACTIVATION is not None:
        o = ACTIVATION(o)

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    o_ptrs = o_ptr + stride_om * offs_m[:, None] + stride_on * offs_n[None, :] + stride_ol * pid_batch
    tl.store(o_ptrs, o, mask=mask)


@triton.jit
def relu_squared_activation(x):
    return tl.where(x > 0, x * x, 0.0)


def triton_bmm(x, y, activation=None):
    B, M, K = x.shape
    if y.ndim == 2:
        y = y.unsqueeze(0).expand(B, -1, -1)
    _, K, N = y.shape
    o = torch.empty((B, M, N), device=x.device, dtype=x.dtype)
    grid = lambda META: (B, triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]))
    bmm_kernel[grid](x, y, o, M, N, K,
                     x.stride(0), x.stride(1), x.stride(2),
                     y.stride(0), y.stride(1), y.stride(2),
                     o.stride(0), o.stride(1), o.stride(2),
                     ACTIVATION=activation)
    return o


class _bmm(autograd.Function):
    @classmethod
    def forward(self, ctx, x, y):
        if x.requires_grad or y.requires_grad:
            ctx.save_for_backward(x, y)
        return triton_bmm(x, y)

    @classmethod
    def backward(self, ctx, do):
        x, y = ctx.saved_tensors
        return triton_bmm(do, y.transpose(-1, -2)), triton_bmm(x.transpose(-1, -2), do)


triton_bmm_fn = _bmm.apply


class ModelNew(nn.Module):
    def __init__(self, use_triton: bool = True):
        super().__init__()
        self.use_triton = use_triton

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if exists(self.use_triton) and self.use_triton:
            return triton_bmm_fn(a, b)
        return a @ b
