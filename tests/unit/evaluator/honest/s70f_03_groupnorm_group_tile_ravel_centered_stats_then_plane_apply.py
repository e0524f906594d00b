# honest: GroupNorm in two kernels: a stats kernel per (sample, group) walking the group's (channels, pixels) as 2-D tiles, accumulating per-lane sums in a 2-D fp32 tile flattened by tl.ravel before the tl.sum, a second looped pass for the centred variance (two-pass, no E[x^2]-E[x]^2 cancellation); then an apply kernel per (sample, channel) plane with a 2-D grid reading its group's mean/rstd and the channel's affine. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_stats_kernel(
    x_ptr, mean_ptr, rstd_ptr,
    HW, C_PER_G, eps,
    BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr,
):
    pid = tl.program_id(0)  # = n * G + g, the group's elements are contiguous
    group_size = C_PER_G * HW
    base = x_ptr + pid.to(tl.int64) * group_size
    c = tl.arange(0, BLOCK_C)[:, None]
    c_mask = c < C_PER_G
    acc = tl.zeros((BLOCK_C, BLOCK_HW), dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)[None, :]
        mask = c_mask & (hw < HW)
        acc += tl.load(base + c * HW + hw, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(tl.ravel(acc), axis=0) / group_size

    acc = tl.zeros((BLOCK_C, BLOCK_HW), dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)[None, :]
        mask = c_mask & (hw < HW)
        x = tl.load(base + c * HW + hw, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    var = tl.sum(tl.ravel(acc), axis=0) / group_size
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, tl.math.rsqrt(var + eps))


@triton.jit
def group_apply_kernel(
    x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr,
    C, HW, C_PER_G,
    BLOCK: tl.constexpr,
):
    plane = tl.program_id(0)  # = n * C + c
    tile = tl.program_id(1)
    n = plane // C
    ch = plane % C
    stat = n * (C // C_PER_G) + ch // C_PER_G
    mean = tl.load(mean_ptr + stat)
    rstd = tl.load(rstd_ptr + stat)
    w = tl.load(w_ptr + ch).to(tl.float32)
    b = tl.load(b_ptr + ch).to(tl.float32)
    scale = w * rstd
    shift = b - mean * scale
    offs = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + base + offs, (x * scale + shift).to(y_ptr.dtype.element_ty), mask=mask)


def group_norm(x, num_groups, weight, bias, eps):
    x = x.contiguous()
    N, C, H, W = x.shape
    HW = H * W
    c_per_g = C // num_groups
    mean = torch.empty(N * num_groups, device=x.device, dtype=torch.float32)
    rstd = torch.empty_like(mean)
    BLOCK_C = triton.next_power_of_2(c_per_g)
    BLOCK_HW = max(16, min(triton.next_power_of_2(HW), 4096 // BLOCK_C))
    group_stats_kernel[(N * num_groups,)](
        x, mean, rstd, HW, c_per_g, eps, BLOCK_C=BLOCK_C, BLOCK_HW=BLOCK_HW, num_warps=4
    )
    y = torch.empty_like(x)
    BLOCK = min(1024, triton.next_power_of_2(HW))
    grid = (N * C, triton.cdiv(HW, BLOCK))
    group_apply_kernel[grid](x, y, weight, bias, mean, rstd, C, HW, c_per_g, BLOCK=BLOCK)
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
