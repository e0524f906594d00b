# honest: KernelBench level2 Gemm + elementwise answer style (12_Gemm_Multiply_LeakyReLU): the GEMM and bias left to cuBLAS through F.linear, ReLU and the scale fused into one flat Triton epilogue kernel. problem: fused/linear_relu_scale
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def relu_scale_kernel(x_ptr, out_ptr, scale, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.maximum(x, 0.0) * scale
    tl.store(out_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        x = F.linear(x, self.linear.weight, self.linear.bias)
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 1024
        grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
        relu_scale_kernel[grid](x, out, self.scale, n_elements, BLOCK_SIZE=BLOCK_SIZE)
        return out
