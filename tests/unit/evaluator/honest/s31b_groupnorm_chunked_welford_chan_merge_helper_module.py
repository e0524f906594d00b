# honest: GroupNorm with Welford statistics: one program per (sample, group) walks the group's contiguous C/G*H*W elements in BLOCK chunks, takes each chunk's mean and M2 with tl.sum and merges them into running scalars by Chan's parallel formula (delta = m_b - m_a; m += delta * n_b / n; M2 += M2_b + delta^2 * n_a * n_b / n), then a second pass normalises and applies the per-channel affine; a reusable `TritonGroupNorm(nn.Module)` helper holds weight/bias and ModelNew holds it as self.gn (initialised as the reference does). problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_welford_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C, HW, G, group_size, eps,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    n = pid // G
    g = pid % G
    cpg = C // G
    base = n.to(tl.int64) * C * HW + g.to(tl.int64) * group_size

    mean = 0.0
    m2 = 0.0
    count = 0.0
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        n_b = tl.sum(mask.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        d = tl.where(mask, x - mean_b, 0.0)
        m2_b = tl.sum(d * d, axis=0)
        n_ab = count + n_b
        delta = mean_b - mean
        mean = mean + delta * (n_b / n_ab)
        m2 = m2 + m2_b + delta * delta * (count * n_b / n_ab)
        count = n_ab

    var = m2 / count
    rstd = 1.0 / tl.sqrt(var + eps)

    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        ch = g * cpg + offs // HW
        w = tl.load(w_ptr + ch, mask=mask, other=1.0)
        b = tl.load(b_ptr + ch, mask=mask, other=0.0)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + base + offs, y, mask=mask)


class TritonGroupNorm(nn.Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5):
        super().__init__()
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(num_channels))
        self.bias = nn.Parameter(torch.zeros(num_channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c = x.shape[0], x.shape[1]
        hw = x[0, 0].numel()
        group_size = (c // self.num_groups) * hw
        y = torch.empty_like(x)
        BLOCK = min(triton.next_power_of_2(group_size), 1024)
        groupnorm_welford_kernel[(n * self.num_groups,)](
            x, self.weight, self.bias, y,
            c, hw, self.num_groups, group_size, self.eps,
            BLOCK=BLOCK, num_warps=8 if BLOCK >= 1024 else 4,
        )
        return y


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = TritonGroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)
