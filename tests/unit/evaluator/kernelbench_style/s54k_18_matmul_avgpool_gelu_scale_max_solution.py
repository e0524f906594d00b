# An honest Triton ModelNew for KernelBench level2/98_Matmul_AvgPool_GELU_Scale_Max: cuBLAS GEMM by x @ W.T + b in torch, then a Triton kernel per row viewing the row as a (windows, POOL) tile (AvgPool1d's floor drops the tail window), the window mean by tl.sum over axis 1, erf GELU, the scale, and tl.max over the windows, masked with -inf.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def avgpool_gelu_scale_max_kernel(h_ptr, out_ptr, n_windows, stride_row, scale,
                                  POOL: tl.constexpr, BLOCK_W: tl.constexpr):
    row = tl.program_id(0)
    w = tl.arange(0, BLOCK_W)
    p = tl.arange(0, POOL)
    mask = (w[:, None] < n_windows) & (p[None, :] < POOL)
    v = tl.load(h_ptr + row * stride_row + w[:, None] * POOL + p[None, :], mask=mask, other=0.0)
    avg = tl.sum(v, axis=1) / POOL
    g = 0.5 * avg * (1.0 + tl.math.erf(avg * 0.7071067811865476))
    g = g * scale
    g = tl.where(w < n_windows, g, float("-inf"))
    tl.store(out_ptr + row, tl.max(g, axis=0))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, pool_kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.pool_kernel_size = pool_kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        h = (x @ self.matmul.weight.T + self.matmul.bias).contiguous()
        B, N = h.shape
        n_windows = N // self.pool_kernel_size
        out = torch.empty(B, device=x.device, dtype=torch.float32)
        avgpool_gelu_scale_max_kernel[(B,)](h, out, n_windows, h.stride(0), float(self.scale_factor),
                                            POOL=self.pool_kernel_size, BLOCK_W=triton.next_power_of_2(n_windows))
        return out
