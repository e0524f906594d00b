"""Honest candidate (honest round s41, accepted since session 43): Per-feature affine with the launch wrapped in torch.profiler.record_function, the way
training codebases (torchtitan, Megatron, vLLM) label kernels for traces."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scale_bias_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < n_cols
    mask = (rows[:, None] < n_rows) & cmask[None, :]
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0, eviction_policy="evict_last")
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0, eviction_policy="evict_last")
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], x * w[None, :] + b[None, :], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.profiler.record_function("triton_scale_bias"):
            x2 = x.reshape(-1, x.shape[-1])
            if x2.stride(-1) != 1:
                x2 = x2.contiguous()
            y = torch.empty_like(x2)
            M, N = x2.shape
            BLOCK_M, BLOCK_N = 16, 128
            grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
            _scale_bias_kernel[grid](x2, self.weight, self.bias, y, M, N, x2.stride(0), y.stride(0),
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
            return y.view_as(x)
