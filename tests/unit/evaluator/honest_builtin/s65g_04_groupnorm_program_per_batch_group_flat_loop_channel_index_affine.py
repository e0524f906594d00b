# honest: GroupNorm with one program per (batch, group) over the group's contiguous C/G*H*W span: sum and sum of squares in fp32, then a second loop normalizes and applies weight/bias picked by offs // HW. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_fwd(
    X, Y, W, B,
    group_size, HW, C_per_group, num_groups, eps,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    g = pid % num_groups
    base = pid.to(tl.int64) * group_size
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < group_size
        x = tl.load(X + base + offs, mask=m, other=0.).to(tl.float32)
        s1 += x
        s2 += x * x
    mean = tl.sum(s1, 0) / group_size
    var = tl.sum(s2, 0) / group_size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < group_size
        ch = g * C_per_group + offs // HW
        x = tl.load(X + base + offs, mask=m, other=0.).to(tl.float32)
        w = tl.load(W + ch, mask=m, other=1.)
        b = tl.load(B + ch, mask=m, other=0.)
        y = (x - mean) * rstd * w + b
        tl.store(Y + base + offs, y, mask=m)


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
        y = torch.empty_like(x)
        group_size = (C // G) * H * W
        group_norm_fwd[(N * G,)](
            x, y, self.gn.weight, self.gn.bias,
            group_size, H * W, C // G, G, self.gn.eps,
            BLOCK=1024,
        )
        return y
