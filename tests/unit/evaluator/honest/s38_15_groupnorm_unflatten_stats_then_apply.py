"""GroupNorm in two kernels: per-(sample, group) statistics, then a normalise-and-affine
pass over (sample, channel) planes. Host glue uses Tensor.unflatten/flatten views."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gn_stats(x_ptr, mean_ptr, rstd_ptr, group_size, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)  # one (n, g) pair
    base = x_ptr + pid * group_size
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    ss = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
        s += x
        ss += x * x
    mean = tl.sum(s, axis=0) / group_size
    var = tl.maximum(tl.sum(ss, axis=0) / group_size - mean * mean, 0.0)
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, tl.rsqrt(var + eps))


@triton.jit
def _gn_apply(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, C, HW, channels_per_group,
              BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    n = pid_nc // C
    c = pid_nc % C
    g = c // channels_per_group
    G = C // channels_per_group
    mean = tl.load(mean_ptr + n * G + g)
    rstd = tl.load(rstd_ptr + n * G + g)
    w = tl.load(w_ptr + c).to(tl.float32)
    b = tl.load(b_ptr + c).to(tl.float32)
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = pid_nc.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean) * (rstd * w) + b
    tl.store(y_ptr + base + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C = x.shape[:2]
        G = self.gn.num_groups
        x = x.contiguous()
        grouped = x.unflatten(1, (G, C // G)).flatten(2)  # (N, G, C/G * HW), a view
        group_size = grouped.shape[-1]
        HW = x[0, 0].numel()
        mean = torch.empty((N, G), device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        _gn_stats[(N * G,)](grouped, mean, rstd, group_size, self.gn.eps, BLOCK=1024)
        y = torch.empty_like(x)
        BLOCK = 512
        _gn_apply[(N * C, triton.cdiv(HW, BLOCK))](x, y, self.gn.weight, self.gn.bias, mean, rstd,
                                                  C, HW, C // G, BLOCK=BLOCK)
        return y
