# An honest ModelNew for KernelBench level2/40_Matmul_Scaling_ResidualAdd; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_residual_kernel(y_ptr, out_ptr, numel, scaling_factor, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    y = tl.load(y_ptr + offs, mask=mask)
    # x * s + x, where the residual is the detached GEMM output itself
    tl.store(out_ptr + offs, y * scaling_factor + y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = torch.matmul(x, self.matmul.weight.T)
        y += self.matmul.bias  # in place on the fresh GEMM result
        out = torch.empty_like(y)
        n = y.numel()
        BLOCK = 1024
        scale_residual_kernel[(triton.cdiv(n, BLOCK),)](y, out, n, self.scaling_factor, BLOCK=BLOCK)
        return out
