# honest: cuBLAS GEMM + fused Triton epilogue, as vLLM / unsloth do it: F.linear without its bias (torch.matmul on the weight's transpose) into a torch.empty buffer, then one Triton kernel adds bias[col] and the residual in place on that buffer, 2D (row, column-block) grid with int64 row offsets. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_residual_inplace_kernel(y_ptr, bias_ptr, res_ptr, N, stride_y, stride_r, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    y = tl.load(y_ptr + row * stride_y + cols, mask=mask, other=0.0)
    b = tl.load(bias_ptr + cols, mask=mask, other=0.0)
    r = tl.load(res_ptr + row * stride_r + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride_y + cols, y + b + r, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        out = torch.empty((x2.shape[0], self.linear.out_features), device=x.device, dtype=x.dtype)
        torch.matmul(x2, self.linear.weight.t(), out=out)
        res = residual.reshape(-1, residual.shape[-1]).contiguous()
        M, N = out.shape
        BLOCK_N = min(1024, triton.next_power_of_2(N))
        grid = (M, triton.cdiv(N, BLOCK_N))
        bias_residual_inplace_kernel[grid](out, self.linear.bias, res, N, out.stride(0), res.stride(0),
                                           BLOCK_N=BLOCK_N)
        return out.view(*x.shape[:-1], N)
