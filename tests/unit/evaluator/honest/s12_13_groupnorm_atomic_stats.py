import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_stats_kernel(x_ptr, sum_ptr, sqsum_ptr, group_numel, BLOCK: tl.constexpr):
    # grid: (num_chunks, N * G); each program reduces one chunk of one group
    chunk = tl.program_id(0)
    ng = tl.program_id(1)
    offs = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < group_numel
    x = tl.load(x_ptr + ng * group_numel + offs, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(sum_ptr + ng, tl.sum(x, axis=0))
    tl.atomic_add(sqsum_ptr + ng, tl.sum(x * x, axis=0))


@triton.jit
def group_norm_apply_kernel(x_ptr, y_ptr, w_ptr, b_ptr, sum_ptr, sqsum_ptr,
                            C, HW, G, group_numel, eps, BLOCK: tl.constexpr):
    pid_hw = tl.program_id(0)
    nc = tl.program_id(1)
    n = nc // C
    c = nc % C
    g = c // (C // G)
    s = tl.load(sum_ptr + n * G + g)
    ss = tl.load(sqsum_ptr + n * G + g)
    mean = s / group_numel
    var = ss / group_numel - mean * mean
    rstd = 1.0 / tl.sqrt(tl.maximum(var, 0.0) + eps)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    x = tl.load(x_ptr + nc * HW + offs, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean) * rstd * w + b
    tl.store(y_ptr + nc * HW + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, H, W = x.shape
        G = self.gn.num_groups
        HW = H * W
        group_numel = (C // G) * HW
        x = x.contiguous()
        sums = torch.zeros(N * G, device=x.device, dtype=torch.float32)
        sqsums = torch.zeros_like(sums)
        BLOCK = 1024
        group_stats_kernel[(triton.cdiv(group_numel, BLOCK), N * G)](
            x, sums, sqsums, group_numel, BLOCK=BLOCK)
        y = torch.empty_like(x)
        BLOCK_HW = min(1024, triton.next_power_of_2(HW))
        group_norm_apply_kernel[(triton.cdiv(HW, BLOCK_HW), N * C)](
            x, y, self.gn.weight, self.gn.bias, sums, sqsums,
            C, HW, G, group_numel, self.gn.eps, BLOCK=BLOCK_HW)
        return y
