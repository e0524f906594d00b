# An honest Triton ModelNew for l2_gemm_sigmoid_scaling_residual.py (KernelBench level2/70_Gemm_Sigmoid_Scaling_ResidualAdd): nn.Linear (cuBLAS) followed by a fused tl.sigmoid * scale + x epilogue written in place, @torch.no_grad() on forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_scale_residual_kernel(x_ptr, n_elements, scaling_factor, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    s = tl.sigmoid(x)
    tl.store(x_ptr + offs, x + s * scaling_factor, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.gemm = nn.Linear(input_size, hidden_size)
        self.scaling_factor = scaling_factor

    @torch.no_grad()
    def forward(self, x):
        y = self.gemm(x).contiguous()  # cuBLAS
        n = y.numel()
        BLOCK_SIZE = 1024
        sigmoid_scale_residual_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, n, float(self.scaling_factor),
                                                                       BLOCK_SIZE=BLOCK_SIZE)
        return y
