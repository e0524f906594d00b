import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def max_sub_gelu_kernel(
    y_ptr, out_ptr, N, stride_y,
    BLOCK_N: tl.constexpr,
):
    # one row per program: max over the row (keepdim), minus the mean of that
    # (1-wide) result, then exact GELU
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    y = tl.load(y_ptr + row * stride_y + cols, mask=mask, other=-float("inf"))
    row_max = tl.max(y, axis=0)
    mean = row_max  # mean over a dimension of size 1
    v = row_max - mean
    g = 0.5 * v * (1.0 + tl.erf(v * 0.7071067811865476))
    tl.store(out_ptr + row, g)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, max_dim):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.max_dim = max_dim

    def forward(self, x):
        assert self.max_dim == 1, "kernel reduces over the feature dimension"
        y = F.linear(x, self.gemm.weight, self.gemm.bias)
        B, N = y.shape
        out = torch.empty((B, 1), device=y.device, dtype=y.dtype)
        BLOCK_N = triton.next_power_of_2(N)
        max_sub_gelu_kernel[(B,)](y, out, N, y.stride(0), BLOCK_N=BLOCK_N)
        return out
