import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_stats_kernel(x_ptr, mean_ptr, rstd_ptr, group_numel, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one program per (sample, group)
    base = x_ptr + pid.to(tl.int64) * group_numel
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    acc_sq = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, group_numel, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < group_numel, other=0.0).to(tl.float32)
        acc += x
        acc_sq += x * x
    mean = tl.sum(acc, axis=0) / group_numel
    var = tl.sum(acc_sq, axis=0) / group_numel - mean * mean
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, 1.0 / tl.sqrt(var + eps))


@triton.jit
def group_apply_kernel(x_ptr, out_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr,
                       C, HW, G, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = (offs // HW) % C
    n = offs // (HW * C)
    g = n * G + c // (C // G)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    mean = tl.load(mean_ptr + g, mask=mask, other=0.0)
    rstd = tl.load(rstd_ptr + g, mask=mask, other=1.0)
    w = tl.load(w_ptr + c, mask=mask, other=1.0)
    b = tl.load(b_ptr + c, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.gn.num_groups
        group_numel = (C // G) * H * W
        mean = torch.empty(N * G, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        group_stats_kernel[(N * G,)](x, mean, rstd, group_numel, self.gn.eps, BLOCK=1024)
        out = torch.empty_like(x)
        total = x.numel()
        grid = lambda meta: (triton.cdiv(total, meta["BLOCK"]),)
        group_apply_kernel[grid](x, out, self.gn.weight, self.gn.bias, mean, rstd,
                                 C, H * W, G, total, BLOCK=1024)
        return out
