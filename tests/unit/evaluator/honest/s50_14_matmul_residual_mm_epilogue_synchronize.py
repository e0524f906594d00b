# honest: cuBLAS GEMM with torch.mm(x, weight.t()), then a Triton epilogue adding bias and residual in one pass (flat, 1-D grid over the output), with torch.cuda.synchronize() after the launch as KernelBench answers often leave it (to surface asynchronous launch errors at the call). problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bias_residual_kernel(y_ptr, b_ptr, r_ptr, out_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % N, mask=mask)
    r = tl.load(r_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, y + b + r, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        y = torch.mm(x, self.linear.weight.t())
        residual = residual.contiguous()
        out = torch.empty_like(y)
        n = y.numel()
        BLOCK = 1024
        _bias_residual_kernel[(triton.cdiv(n, BLOCK),)](y, self.linear.bias, residual, out, n,
                                                        y.shape[1], BLOCK=BLOCK)
        torch.cuda.synchronize()
        return out
