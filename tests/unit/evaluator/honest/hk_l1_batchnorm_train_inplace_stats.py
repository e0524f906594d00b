# An honest ModelNew for KernelBench level1/33_BatchNorm; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_channel_stats_kernel(x_ptr, mean_ptr, var_ptr, N, C, HW, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    count = N * HW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for n in range(0, N):
        base = (n * C + c) * HW
        for s in range(0, HW, BLOCK):
            o = s + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + base + o, mask=o < HW, other=0.0)
    mean = tl.sum(acc, axis=0) / count
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for n in range(0, N):
        base = (n * C + c) * HW
        for s in range(0, HW, BLOCK):
            o = s + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + base + o, mask=o < HW, other=0.0)
            d = tl.where(o < HW, v - mean, 0.0)
            acc2 += d * d
    tl.store(mean_ptr + c, mean)
    tl.store(var_ptr + c, tl.sum(acc2, axis=0) / count)


@triton.jit
def bn_apply_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW, total, eps,
                    BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    mean = tl.load(mean_ptr + c, mask=mask, other=0.0)
    var = tl.load(var_ptr + c, mask=mask, other=1.0)
    w = tl.load(w_ptr + c, mask=mask, other=1.0)
    b = tl.load(b_ptr + c, mask=mask, other=0.0)
    tl.store(y_ptr + offs, (x - mean) / tl.sqrt(var + eps) * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        HW = H * W
        bn = self.bn
        if self.training:
            mean = torch.empty(C, device=x.device, dtype=torch.float32)
            var = torch.empty(C, device=x.device, dtype=torch.float32)
            bn_channel_stats_kernel[(C,)](x, mean, var, N, C, HW, BLOCK=128)
            # update the running statistics as nn.BatchNorm2d does (unbiased variance)
            n = N * HW
            m = bn.momentum
            with torch.no_grad():
                bn.running_mean.mul_(1 - m).add_(mean, alpha=m)
                bn.running_var.mul_(1 - m).add_(var, alpha=m * n / (n - 1))
                bn.num_batches_tracked.add_(1)
        else:
            mean, var = bn.running_mean, bn.running_var
        y = torch.empty_like(x)
        total = x.numel()
        bn_apply_kernel[(triton.cdiv(total, 1024),)](x, y, mean, var, bn.weight, bn.bias, C, HW, total,
                                                     bn.eps, BLOCK=1024)
        return y
