# An honest Triton ModelNew for KernelBench level2/55_Matmul_MaxPool_Sum_Scale (problem s53k_17_matmul_maxpool_sum_scale): the GEMM by torch.nn.functional.linear, then per row a contiguous load of BLOCK_W * KS values reshaped with tl.reshape to [BLOCK_W, KS] and reduced by tl.max(axis=1), the window maxima summed and scaled; a trailing partial window (N % KS) masked off as MaxPool1d drops it.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pool_sum_scale_kernel(y_ptr, out_ptr, N, n_windows, stride_row, scale, KS: tl.constexpr, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)
    total = 0.0
    for w0 in range(0, n_windows, BLOCK_W):
        offs = w0 * KS + tl.arange(0, BLOCK_W * KS)
        valid = offs < n_windows * KS
        v = tl.load(y_ptr + row * stride_row + offs, mask=valid, other=float("-inf"))
        v = tl.reshape(v, (BLOCK_W, KS))
        wmax = tl.max(v, axis=1)
        widx = w0 + tl.arange(0, BLOCK_W)
        total += tl.sum(tl.where(widx < n_windows, wmax, 0.0), axis=0)
    tl.store(out_ptr + row, total * scale)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.max_pool_kernel = kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        y = torch.nn.functional.linear(x, self.matmul.weight, self.matmul.bias)
        B, N = y.shape
        out = torch.empty(B, device=y.device, dtype=y.dtype)
        pool_sum_scale_kernel[(B,)](y, out, N, N // self.max_pool_kernel, y.stride(0), self.scale_factor,
                                    KS=self.max_pool_kernel, BLOCK_W=128)
        return out
