# An honest ModelNew for KernelBench level2/41_Gemm_BatchNorm_GELU_ReLU; krl check on the CPU gives ok (small sizes).
from typing import Optional, Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def column_stats_kernel(x_ptr, mean_ptr, var_ptr, M, N, stride_m,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :],
                    mask=(rows[:, None] < M) & cmask[None, :], other=0.0)
        s += tl.sum(x, axis=0)
    mean = s / M
    ss = tl.zeros([BLOCK_N], dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        msk = (rows[:, None] < M) & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=msk, other=0.0)
        d = tl.where(msk, x - mean[None, :], 0.0)
        ss += tl.sum(d * d, axis=0)
    tl.store(mean_ptr + cols, mean, mask=cmask)
    tl.store(var_ptr + cols, ss / M, mask=cmask)


@triton.jit
def bn_gelu_relu_kernel(x_ptr, out_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, M, N, stride_m, eps,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    msk = (rows[:, None] < M) & cmask[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=msk, other=0.0)
    mean = tl.load(mean_ptr + cols, mask=cmask, other=0.0)
    var = tl.load(var_ptr + cols, mask=cmask, other=1.0)
    w = tl.load(w_ptr + cols, mask=cmask, other=1.0)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0)
    y = (x - mean[None, :]) * tl.rsqrt(var[None, :] + eps) * w[None, :] + b[None, :]
    y = 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))
    y = tl.maximum(y, 0.0)
    tl.store(out_ptr + rows[:, None] * stride_m + cols[None, :], y, mask=msk)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int) -> None:
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.batch_norm = nn.BatchNorm1d(out_features)

    @staticmethod
    def _batch_stats(h: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        M, N = h.shape
        mean = torch.empty(N, device=h.device, dtype=torch.float32)
        var = torch.empty(N, device=h.device, dtype=torch.float32)
        column_stats_kernel[(triton.cdiv(N, 32),)](h, mean, var, M, N, h.stride(0), BLOCK_M=32, BLOCK_N=32)
        return mean, var

    def _stats(self, h: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        bn = self.batch_norm
        if not self.training:
            return bn.running_mean, bn.running_var
        mean, var = self._batch_stats(h)
        momentum: Optional[float] = bn.momentum
        if bn.track_running_stats and momentum is not None:
            n = h.shape[0]
            with torch.no_grad():
                bn.running_mean.mul_(1.0 - momentum).add_(momentum * mean)
                bn.running_var.mul_(1.0 - momentum).add_(momentum * var * (n / (n - 1)))
                bn.num_batches_tracked.add_(1)
        return mean, var

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.gemm(x)
        M, N = h.shape
        mean, var = self._stats(h)
        out = torch.empty_like(h)
        grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))
        bn_gelu_relu_kernel[grid](h, out, mean, var, self.batch_norm.weight, self.batch_norm.bias,
                                  M, N, h.stride(0), self.batch_norm.eps, BLOCK_M=16, BLOCK_N=32)
        return out
