# honest: GroupNorm with one program per (sample, group) on a 2-D grid (program_id(0) sample, program_id(1) group), int64 base offsets, two passes over the group in chunks, the per-channel affine applied in the same kernel; parameters drawn as the reference draws them. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    cpg = C // G
    group_size = cpg * HW
    base = (n.to(tl.int64) * C + g * cpg) * HW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    acc2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / group_size
    var = tl.maximum(tl.sum(acc2, axis=0) / group_size - mean * mean, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        c = g * cpg + offs // HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=mask, other=1.0)
        b = tl.load(b_ptr + c, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.num_groups = num_groups
        self.eps = 1e-5
        self.weight = nn.Parameter(torch.empty(channels))
        self.bias = nn.Parameter(torch.empty(channels))
        with torch.no_grad():
            self.weight.normal_(1.0, 0.2)
            self.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        groupnorm_kernel[(N, self.num_groups)](x, y, self.weight, self.bias, C, H * W,
                                               self.num_groups, self.eps, BLOCK=1024)
        return y
