# An honest Triton ModelNew for KernelBench level2/30_Gemm_GroupNorm_Hardtanh: torch.addmm for the GEMM, then one Triton program per (row, group): the group's channels loaded as one power-of-two block, fp32 mean and biased variance, rsqrt(var + eps), the GroupNorm affine and the Hardtanh clamp fused, the module's eps and bounds read from its submodules.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_hardtanh_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, C, group_size, stride_row, eps, lo, hi,
                              BLOCK: tl.constexpr):
    row = tl.program_id(0)
    g = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    mask = offs < group_size
    ch = g * group_size + offs
    x = tl.load(x_ptr + row * stride_row + ch, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / group_size
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / group_size
    rstd = tl.rsqrt(var + eps)
    gamma = tl.load(gamma_ptr + ch, mask=mask, other=1.0)
    beta = tl.load(beta_ptr + ch, mask=mask, other=0.0)
    y = diff * rstd * gamma + beta
    y = tl.minimum(tl.maximum(y, lo), hi)
    tl.store(y_ptr + row * stride_row + ch, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, num_groups, hardtanh_min, hardtanh_max):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.hardtanh = nn.Hardtanh(min_val=hardtanh_min, max_val=hardtanh_max)

    def forward(self, x):
        h = torch.addmm(self.gemm.bias, x, self.gemm.weight.t())
        B, C = h.shape
        G = self.group_norm.num_groups
        group_size = C // G
        y = torch.empty_like(h)
        BLOCK = triton.next_power_of_2(group_size)
        groupnorm_hardtanh_kernel[(B, G)](h, self.group_norm.weight, self.group_norm.bias, y, C, group_size,
                                          h.stride(0), self.group_norm.eps,
                                          float(self.hardtanh.min_val), float(self.hardtanh.max_val), BLOCK=BLOCK)
        return y
