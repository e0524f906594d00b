# honest: GroupNorm as apex/FlagGems do it in two launches: a stats kernel per (batch, group) walking the group's C/G*H*W elements in blocks with a lane-wise Welford update and a final Chan merge across lanes (tl.reduce with a combine fn), writing mean/rstd; then an apply kernel per (batch*channel, HW block) reading its group's stats, weight and bias. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def welford_merge(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    frac = tl.where(n == 0.0, 0.0, n_b / n)
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * n_a * frac, n


@triton.jit
def group_stats_kernel(x_ptr, mean_ptr, rstd_ptr, group_numel, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # = n * G + g; a group is contiguous in NCHW
    base = x_ptr + pid.to(tl.int64) * group_numel
    mean = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_numel
        x = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
        new_cnt = cnt + mask.to(tl.float32)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(new_cnt, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
        cnt = new_cnt
    g_mean, g_m2, g_cnt = tl.reduce((mean, m2, cnt), 0, welford_merge)
    var = g_m2 / g_cnt
    tl.store(mean_ptr + pid, g_mean)
    tl.store(rstd_ptr + pid, tl.math.rsqrt(var + eps))


@triton.jit
def group_apply_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, C, HW, CPG, G,
                       BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    n = pid_nc // C
    c = pid_nc % C
    stat = n * G + c // CPG
    mean = tl.load(mean_ptr + stat)
    rstd = tl.load(rstd_ptr + stat)
    scale = tl.load(w_ptr + c) * rstd
    shift = tl.load(b_ptr + c) - mean * scale
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = pid_nc.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


def group_norm(x, num_groups, weight, bias, eps):
    N, C, H, W = x.shape
    x = x.contiguous()
    G = num_groups
    HW = H * W
    cpg = C // G
    mean = torch.empty(N * G, device=x.device, dtype=torch.float32)
    rstd = torch.empty_like(mean)
    group_stats_kernel[(N * G,)](x, mean, rstd, cpg * HW, eps, BLOCK=1024, num_warps=4)
    y = torch.empty_like(x)
    BLOCK = min(1024, triton.next_power_of_2(HW))
    group_apply_kernel[(N * C, triton.cdiv(HW, BLOCK))](x, y, weight, bias, mean, rstd, C, HW, cpg, G,
                                                        BLOCK=BLOCK)
    return y


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return group_norm(x, self.gn.num_groups, self.gn.weight, self.gn.bias, self.gn.eps)
