# An honest Triton ModelNew for KernelBench level2/55_Matmul_MaxPool_Sum_Scale: the GEMM in cuBLAS through the model's nn.Linear (F.linear), then one Triton kernel per row: the row viewed as [N // k, k] windows (MaxPool1d drops the tail), tl.max over each window, tl.sum of the maxima, times scale_factor, a (batch,) output.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def maxpool_sum_scale_kernel(y_ptr, out_ptr, N, n_windows, scale, KS: tl.constexpr, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)
    offs_k = tl.arange(0, KS)
    acc = tl.zeros((BLOCK_W,), dtype=tl.float32)
    for w0 in range(0, n_windows, BLOCK_W):
        offs_w = w0 + tl.arange(0, BLOCK_W)
        wmask = offs_w < n_windows
        idx = offs_w[:, None] * KS + offs_k[None, :]
        v = tl.load(y_ptr + row * N + idx, mask=wmask[:, None], other=float("-inf"))
        m = tl.max(v, axis=1)
        acc += tl.where(wmask, m, 0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0) * scale)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.kernel_size = kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        y = F.linear(x, self.matmul.weight, self.matmul.bias).contiguous()
        B, N = y.shape
        n_windows = N // self.kernel_size
        out = torch.empty((B,), device=y.device, dtype=y.dtype)
        maxpool_sum_scale_kernel[(B,)](y, out, N, n_windows, self.scale_factor,
                                       KS=self.kernel_size, BLOCK_W=256)
        return out
