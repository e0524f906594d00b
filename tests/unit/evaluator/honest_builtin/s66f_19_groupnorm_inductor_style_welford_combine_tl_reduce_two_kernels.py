# honest: GroupNorm in the shape TorchInductor emits: a statistics kernel per (sample, group) keeping per-lane Welford triples (mean, m2, weight) over chunks and merging the lanes with tl.reduce and a @triton.jit welford_combine function, mean and rstd written to small fp32 buffers; a second elementwise kernel applies (x - mean) * rstd * gamma[c] + beta[c] over the flat tensor. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight


@triton.jit
def group_stats_kernel(x_ptr, mean_ptr, rstd_ptr, group_numel, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    base = x_ptr + pid.to(tl.int64) * group_numel
    mean = tl.zeros((BLOCK,), dtype=tl.float32)
    m2 = tl.zeros((BLOCK,), dtype=tl.float32)
    weight = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, group_numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_numel
        x = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
        # one new sample per lane: the combine with a weight-1 triple is the Welford update
        new_w = weight + mask.to(tl.float32)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(new_w, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
        weight = new_w
    g_mean, g_m2, g_w = tl.reduce((mean, m2, weight), 0, welford_combine)
    tl.store(mean_ptr + pid, g_mean)
    tl.store(rstd_ptr + pid, 1.0 / tl.sqrt(g_m2 / g_w + eps))


@triton.jit
def group_norm_apply_kernel(x_ptr, y_ptr, mean_ptr, rstd_ptr, w_ptr, b_ptr, n_elements, hw, channels, cpg,
                            BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    c = (offs // hw) % channels
    ng = (offs // hw) // cpg  # sample * groups + group
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.load(mean_ptr + ng, mask=mask, other=0.0)
    rstd = tl.load(rstd_ptr + ng, mask=mask, other=1.0)
    w = tl.load(w_ptr + c, mask=mask, other=1.0)
    b = tl.load(b_ptr + c, mask=mask, other=0.0)
    tl.store(y_ptr + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():  # the same affine draw as the reference's __init__
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c = x.shape[:2]
        g = self.gn.num_groups
        hw = x[0, 0].numel()
        group_numel = (c // g) * hw
        mean = torch.empty(n * g, device=x.device, dtype=torch.float32)
        rstd = torch.empty(n * g, device=x.device, dtype=torch.float32)
        group_stats_kernel[(n * g,)](x, mean, rstd, group_numel, self.gn.eps, BLOCK=256)
        y = torch.empty_like(x)
        total = x.numel()
        BLOCK = 1024
        group_norm_apply_kernel[(triton.cdiv(total, BLOCK),)](x, y, mean, rstd, self.gn.weight, self.gn.bias,
                                                             total, hw, c, c // g, BLOCK=BLOCK)
        return y
