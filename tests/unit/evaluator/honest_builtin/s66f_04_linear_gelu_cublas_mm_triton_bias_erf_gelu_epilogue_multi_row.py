# honest: cuBLAS GEMM + Triton epilogue in the Liger / unsloth manner: x @ W^T by torch.mm, then a Triton kernel over 2D (BLOCK_M rows x BLOCK_N cols) tiles adds the bias and applies exact erf GELU in fp32, writing a separate torch.empty_like output. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, M, N, stride_xm, stride_om,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_xm + cols[None, :], mask=mask, other=0.0)
    b = tl.load(bias_ptr + cols, mask=cols < N, other=0.0)
    h = x.to(tl.float32) + b[None, :].to(tl.float32)
    y = 0.5 * h * (1.0 + tl.math.erf(h * 0.7071067811865476))
    tl.store(out_ptr + rows[:, None].to(tl.int64) * stride_om + cols[None, :], y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.mm(x, self.linear.weight.t())
        out = torch.empty_like(h)
        M, N = h.shape
        BLOCK_M, BLOCK_N = 16, 64
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        bias_gelu_kernel[grid](h, self.linear.bias, out, M, N, h.stride(0), out.stride(0),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
        return out
