# An honest ModelNew for KernelBench level2/33_Gemm_Scale_BatchNorm; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def scale_bn_train_kernel(
    x_ptr, scale_ptr, gamma_ptr, beta_ptr, out_ptr, mean_ptr, var_ptr,
    M, N, stride_xm, stride_om, eps,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    # one program per block of feature columns; it walks the whole batch twice
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    s = tl.load(scale_ptr + cols, mask=cmask, other=0.0)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0)
        acc += tl.sum(x * s[None, :], axis=0)
    mean = acc / M
    acc2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0)
        d = tl.where(mask, x * s[None, :] - mean[None, :], 0.0)
        acc2 += tl.sum(d * d, axis=0)
    var = acc2 / M  # biased, used for normalisation in training mode
    rstd = 1.0 / tl.sqrt(var + eps)
    g = tl.load(gamma_ptr + cols, mask=cmask, other=1.0)
    b = tl.load(beta_ptr + cols, mask=cmask, other=0.0)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0)
        y = (x * s[None, :] - mean[None, :]) * rstd[None, :] * g[None, :] + b[None, :]
        tl.store(out_ptr + rows[:, None] * stride_om + cols[None, :], y, mask=mask)
    tl.store(mean_ptr + cols, mean, mask=cmask)
    tl.store(var_ptr + cols, var, mask=cmask)


class ModelNew(nn.Module):
    """Linear in cuBLAS; scale + BatchNorm1d (training mode: batch statistics) in Triton."""

    def __init__(self, in_features, out_features, scale_shape, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.randn(scale_shape))
        self.bn = nn.BatchNorm1d(out_features, eps=eps, momentum=momentum)

    def forward(self, x):
        y = F.linear(x, self.gemm.weight, self.gemm.bias)
        M, N = y.shape
        out = torch.empty_like(y)
        if self.training:
            mean = torch.empty(N, device=y.device, dtype=torch.float32)
            var = torch.empty(N, device=y.device, dtype=torch.float32)
            BLOCK_N = 32
            scale_bn_train_kernel[(triton.cdiv(N, BLOCK_N),)](
                y, self.scale, self.bn.weight, self.bn.bias, out, mean, var,
                M, N, y.stride(0), out.stride(0), self.bn.eps,
                BLOCK_M=16, BLOCK_N=BLOCK_N,
            )
            with torch.no_grad():  # keep the running statistics like nn.BatchNorm1d does
                m = self.bn.momentum
                self.bn.running_mean.mul_(1 - m).add_(mean, alpha=m)
                self.bn.running_var.mul_(1 - m).add_(var * M / max(M - 1, 1), alpha=m)
                self.bn.num_batches_tracked.add_(1)
            return out
        return self.bn(y * self.scale)
