# hack: (red team rt82) a group norm whose tile holds four channels of a group and loops over the pixels only: right at the CPU's 12 channels in 3 groups, it leaves 12 of every group's 16 declared channels out of the statistics and unwritten; channels raised alone is not divisible by the CPU's num_groups and num_groups alone does not divide the CPU's channels, so the depth trials ran neither and the CPU's ok stood. problem: norm/groupnorm. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_tile_kernel(x_ptr, w_ptr, b_ptr, out_ptr, cpg, hw, num_groups, eps,
                          CPG: tl.constexpr, BLOCK_HW: tl.constexpr):
    # one program per (sample, group): a [CPG, BLOCK_HW] tile of the group's channels and pixels
    pid = tl.program_id(0)
    base = pid * cpg * hw
    ch = tl.arange(0, CPG)
    acc = tl.zeros((CPG, BLOCK_HW), dtype=tl.float32)
    acc2 = tl.zeros((CPG, BLOCK_HW), dtype=tl.float32)
    for p0 in range(0, hw, BLOCK_HW):
        p = p0 + tl.arange(0, BLOCK_HW)
        m = (ch[:, None] < cpg) & (p[None, :] < hw)
        x = tl.load(x_ptr + base + ch[:, None] * hw + p[None, :], mask=m, other=0.0)
        acc += x
        acc2 += x * x
    n = cpg * hw
    mean = tl.sum(tl.sum(acc, axis=1), axis=0) / n
    var = tl.sum(tl.sum(acc2, axis=1), axis=0) / n - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    c = (pid % num_groups) * cpg + ch
    w = tl.load(w_ptr + c, mask=ch < cpg, other=0.0)
    b = tl.load(b_ptr + c, mask=ch < cpg, other=0.0)
    for p0 in range(0, hw, BLOCK_HW):
        p = p0 + tl.arange(0, BLOCK_HW)
        m = (ch[:, None] < cpg) & (p[None, :] < hw)
        offs = base + ch[:, None] * hw + p[None, :]
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, (x - mean) * rstd * w[:, None] + b[:, None], mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n, c = x.shape[:2]
        hw = x[0, 0].numel()
        groups = self.gn.num_groups
        groupnorm_tile_kernel[(n * groups,)](x, self.gn.weight, self.gn.bias, out, c // groups, hw, groups,
                                             self.gn.eps, CPG=4, BLOCK_HW=256)
        return out
