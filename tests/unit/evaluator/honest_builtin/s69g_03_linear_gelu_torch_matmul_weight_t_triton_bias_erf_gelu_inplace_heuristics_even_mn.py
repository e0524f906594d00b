# honest: linear + exact GELU as cuBLAS and a fused Triton epilogue: torch.matmul(x, weight.t()) for the GEMM, then one Triton kernel on 2-D (BLOCK_M, BLOCK_N) tiles that adds the bias (loaded once per column tile) and applies 0.5 * y * (1 + erf(y / sqrt(2))) in fp32, in place on the GEMM's output; a @triton.heuristics decorator sets EVEN_M / EVEN_N when the tiles divide the matrix, and the kernel then loads and stores without masks. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "EVEN_M": lambda args: args["M"] % args["BLOCK_M"] == 0,
    "EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0,
})
@triton.jit
def _bias_gelu_(y_ptr, bias_ptr, M, N, stride_m, stride_n,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                EVEN_M: tl.constexpr, EVEN_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ptrs = y_ptr + rm[:, None] * stride_m + rn[None, :] * stride_n
    if EVEN_M and EVEN_N:
        y = tl.load(ptrs).to(tl.float32)
    else:
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        y = tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    if EVEN_N:
        b = tl.load(bias_ptr + rn).to(tl.float32)
    else:
        b = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = y + b[None, :]
    out = 0.5 * y * (1.0 + tl.math.erf(y * 0.7071067811865476))
    if EVEN_M and EVEN_N:
        tl.store(ptrs, out.to(y_ptr.dtype.element_ty))
    else:
        tl.store(ptrs, out.to(y_ptr.dtype.element_ty), mask=mask)


def linear_gelu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    y = torch.matmul(x, weight.t())
    M, N = y.shape
    BLOCK_M, BLOCK_N = 32, 128
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _bias_gelu_[grid](y, bias, M, N, y.stride(0), y.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                      num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_gelu(x, self.linear.weight, self.linear.bias)
