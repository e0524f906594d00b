# An honest Triton ModelNew for l2_gemm_multiply_leakyrelu.py (KernelBench level2/12_Gemm_Multiply_LeakyReLU): the GEMM stays in cuBLAS through the model's own nn.Linear, and one Triton kernel fuses the multiply and LeakyReLU, written in place over the GEMM's output; the floats from get_init_inputs passed as scalar arguments.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_leaky_relu_kernel(x_ptr, n_elements, multiplier, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x = x * multiplier
    x = tl.where(x >= 0, x, x * negative_slope)
    tl.store(x_ptr + offsets, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x):
        x = self.gemm(x)  # cuBLAS
        n_elements = x.numel()
        BLOCK_SIZE = 1024
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        scale_leaky_relu_kernel[grid](x, n_elements, self.multiplier, self.negative_slope, BLOCK_SIZE=BLOCK_SIZE)
        return x
