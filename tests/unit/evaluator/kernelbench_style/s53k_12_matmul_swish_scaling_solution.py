# An honest Triton ModelNew for KernelBench level2/59_Matmul_Swish_Scaling: torch.matmul (cuBLAS) for x @ W.T, then one Triton kernel for + bias, swish, * scaling_factor over the 2-D output (bias indexed by offs % N); a CPU branch returning the torch expression.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_swish_scale_kernel(y_ptr, bias_ptr, out_ptr, n_elements, N, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + offs % N, mask=mask, other=0.0)
    y = y + b
    y = y * tl.sigmoid(y)
    tl.store(out_ptr + offs, y * scale, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        if not x.is_cuda:
            y = self.matmul(x)
            return y * torch.sigmoid(y) * self.scaling_factor
        y = torch.matmul(x, self.matmul.weight.t())
        out = torch.empty_like(y)
        n = y.numel()
        N = y.shape[1]
        BLOCK_SIZE = 1024
        bias_swish_scale_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, self.matmul.bias, out, n, N, self.scaling_factor,
                                                               BLOCK_SIZE=BLOCK_SIZE)
        return out
