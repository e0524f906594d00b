# An honest ModelNew for KernelBench level2/81_Gemm_Swish_Divide_Clamp_Tanh_Clamp; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def swish_div_clamp_tanh_clamp_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0, eviction_policy="evict_first")
    x = x * tl.sigmoid(x)
    x = x / 2.0
    x = tl.clamp(x, -1.0, 1.0)
    x = 2.0 * tl.sigmoid(2.0 * x) - 1.0  # tanh; |x| <= 1 here, no overflow
    x = tl.clamp(x, -1.0, 1.0)
    tl.store(out_ptr + offsets, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=bias)

    def forward(self, x):
        x = F.linear(x, self.gemm.weight, self.gemm.bias)
        out = torch.empty_like(x)
        n_elements = out.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        swish_div_clamp_tanh_clamp_kernel[grid](x, out, n_elements, BLOCK_SIZE=256)
        return out
