# An honest ModelNew for KernelBench level2/88_Gemm_GroupNorm_Swish_Multiply_Swish; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gn_swish_mul_swish_kernel(x_ptr, out_ptr, gamma_ptr, beta_ptr, mw_ptr,
                              C, eps, CPG: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    group = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    mask = offs < CPG
    c = group * CPG + offs
    ptr = row * C + c
    x = tl.load(x_ptr + ptr, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / CPG
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / CPG
    y = diff / tl.sqrt(var + eps)
    y = y * tl.load(gamma_ptr + c, mask=mask, other=0.0) + tl.load(beta_ptr + c, mask=mask, other=0.0)
    y = y * tl.sigmoid(y)
    y = y * tl.load(mw_ptr + c, mask=mask, other=0.0)
    y = y * tl.sigmoid(y)
    tl.store(out_ptr + ptr, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, num_groups, multiply_weight_shape):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.multiply_weight = nn.Parameter(torch.randn(multiply_weight_shape))
        self.num_groups = num_groups

    def forward(self, x):
        x = self.gemm(x).contiguous()
        B, C = x.shape
        cpg = C // self.num_groups
        out = torch.empty_like(x)
        gn_swish_mul_swish_kernel[(B, self.num_groups)](
            x, out, self.group_norm.weight, self.group_norm.bias, self.multiply_weight,
            C, self.group_norm.eps, CPG=cpg, BLOCK=triton.next_power_of_2(cpg))
        return out
