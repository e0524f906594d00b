# honest: a channel-to-group table from torch.arange(C) // (C // G) (honest round, session 20). problem: norm/groupnorm. policy: strict
"""GroupNorm with a channel -> group index table built with torch.arange (c // channels_per_group),
a stats kernel per (sample, group) and an apply kernel that looks up each channel's group."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gn_stats_kernel(x_ptr, mean_ptr, rstd_ptr, numel, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    base = x_ptr + pid * numel
    s = tl.zeros([BLOCK], tl.float32)
    ss = tl.zeros([BLOCK], tl.float32)
    for start in range(0, numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < numel, other=0.0)
        s += x
    mean = tl.sum(s, axis=0) / numel
    for start in range(0, numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < numel, other=0.0)
        d = tl.where(offs < numel, x - mean, 0.0)
        ss += d * d
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, 1.0 / tl.sqrt(tl.sum(ss, axis=0) / numel + eps))


@triton.jit
def gn_apply_kernel(x_ptr, y_ptr, w_ptr, b_ptr, gid_ptr, mean_ptr, rstd_ptr, C, G, HW, BLOCK: tl.constexpr):
    nc = tl.program_id(0)
    n = nc // C
    c = nc % C
    g = tl.load(gid_ptr + c)
    mean = tl.load(mean_ptr + n * G + g)
    rstd = tl.load(rstd_ptr + n * G + g)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < HW
        x = tl.load(x_ptr + nc * HW + offs, mask=m, other=0.0)
        tl.store(y_ptr + nc * HW + offs, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.gn.num_groups
        group_of_channel = torch.arange(C, device=x.device, dtype=torch.int32) // (C // G)
        mean = torch.empty(N * G, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        gn_stats_kernel[(N * G,)](x, mean, rstd, (C // G) * H * W, self.gn.eps, BLOCK=1024)
        y = torch.empty_like(x)
        gn_apply_kernel[(N * C,)](x, y, self.gn.weight, self.gn.bias, group_of_channel, mean, rstd,
                                  C, G, H * W, BLOCK=512)
        return y
