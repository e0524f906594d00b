# An honest ModelNew for KernelBench level1/34_InstanceNorm; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def plane_stats_kernel(x_ptr, mean_ptr, rstd_ptr, HW, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    base = x_ptr + pid.to(tl.int64) * HW
    # Welford-free two-pass: mean first, then the centred second moment
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, HW, BLOCK):
        o = s + tl.arange(0, BLOCK)
        acc += tl.load(base + o, mask=o < HW, other=0.0)
    mean = tl.sum(acc) / HW
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, HW, BLOCK):
        o = s + tl.arange(0, BLOCK)
        v = tl.load(base + o, mask=o < HW, other=0.0)
        v = tl.where(o < HW, v - mean, 0.0)
        acc2 += v * v
    var = tl.sum(acc2) / HW
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, 1.0 / tl.sqrt(var + eps))


@triton.jit
def normalize_kernel(x_ptr, y_ptr, mean_ptr, rstd_ptr, HW, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    plane = offs // HW
    x = tl.load(x_ptr + offs, mask=mask)
    mean = tl.load(mean_ptr + plane, mask=mask)
    rstd = tl.load(rstd_ptr + plane, mask=mask)
    tl.store(y_ptr + offs, (x - mean) * rstd, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.num_features = num_features
        self.eps = 1e-5  # nn.InstanceNorm2d's default; affine=False, no running stats

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        planes, HW = N * C, H * W
        mean = torch.empty(planes, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        plane_stats_kernel[(planes,)](x, mean, rstd, HW, self.eps, BLOCK=256)
        y = torch.empty_like(x)
        total = x.numel()
        normalize_kernel[(triton.cdiv(total, 512),)](x, y, mean, rstd, HW, total, BLOCK=512)
        return y
