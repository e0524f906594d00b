# An honest Triton ModelNew for KernelBench level1/35_GroupNorm_: the model's own nn.GroupNorm keeps weight, bias and eps; one program per (sample, group) computes mean and variance in float32 over the group's contiguous C/G*H*W span (two loops), then a third loop normalises with the per-channel affine.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    cpg = C // G
    group_size = cpg * HW
    base = n * C * HW + g * group_size
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / group_size
    acc_var = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=m, other=0.0).to(tl.float32)
        d = tl.where(m, x - mean, 0.0)
        acc_var += d * d
    var = tl.sum(acc_var, axis=0) / group_size
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < group_size
        c = g * cpg + offs // HW
        x = tl.load(x_ptr + base + offs, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m, other=1.0)
        b = tl.load(b_ptr + c, mask=m, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, num_groups: int):
        super(ModelNew, self).__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C = x.shape[0], x.shape[1]
        HW = x.numel() // (N * C)
        G = self.gn.num_groups
        y = torch.empty_like(x)
        group_norm_kernel[(N * G,)](x, y, self.gn.weight, self.gn.bias, C, HW, G, self.gn.eps, BLOCK=1024)
        return y
