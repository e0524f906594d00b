# An honest ModelNew for KernelBench level2/52_Conv2d_Activation_BatchNorm; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.heuristics({"EVEN_HW": lambda args: args["HW"] % args["BLOCK"] == 0})
@triton.jit
def act_stats_kernel(x_ptr, y_ptr, sum_ptr, sqsum_ptr, C, HW,
                     BLOCK: tl.constexpr, EVEN_HW: tl.constexpr):
    # program (n, c): y = tanh(softplus(x)) * x, and per-channel partial sums
    n = tl.program_id(0)
    c = tl.program_id(1)
    base = (n * C + c) * HW
    s = tl.zeros([BLOCK], dtype=tl.float32)
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, HW, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        if EVEN_HW:
            x = tl.load(x_ptr + base + idx)
        else:
            x = tl.load(x_ptr + base + idx, mask=idx < HW, other=0.0)
        sp = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
        e = tl.exp(-2.0 * sp)
        y = x * (1.0 - e) / (1.0 + e)
        if EVEN_HW:
            tl.store(y_ptr + base + idx, y)
        else:
            tl.store(y_ptr + base + idx, y, mask=idx < HW)
        s += y
        sq += y * y
    tl.atomic_add(sum_ptr + c, tl.sum(s, axis=0))
    tl.atomic_add(sqsum_ptr + c, tl.sum(sq, axis=0))


@triton.jit
def bn_apply_kernel(y_ptr, out_ptr, mean_ptr, rstd_ptr, w_ptr, b_ptr, C, HW, total,
                    BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    mean = tl.load(mean_ptr + c, mask=mask, other=0.0)
    rstd = tl.load(rstd_ptr + c, mask=mask, other=1.0)
    w = tl.load(w_ptr + c, mask=mask, other=1.0)
    b = tl.load(b_ptr + c, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (y - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bn = nn.BatchNorm2d(out_channels, eps=eps, momentum=momentum)

    def forward(self, x):
        x = F.conv2d(x, self.conv.weight, self.conv.bias).contiguous()
        N, C, H, W = x.shape
        HW = H * W
        y = torch.empty_like(x)
        sums = torch.zeros(C, device=x.device, dtype=torch.float32)
        sqsums = torch.zeros(C, device=x.device, dtype=torch.float32)
        act_stats_kernel[(N, C)](x, y, sums, sqsums, C, HW, BLOCK=64)
        count = N * HW
        if self.training:
            mean = sums / count
            var = (sqsums / count - mean * mean).clamp_min_(0.0)
            with torch.no_grad():
                m = self.bn.momentum
                self.bn.running_mean.lerp_(mean, m)
                self.bn.running_var.lerp_(var * count / (count - 1), m)
                self.bn.num_batches_tracked.add_(1)
        else:
            mean, var = self.bn.running_mean, self.bn.running_var
        rstd = torch.rsqrt(var + self.bn.eps)
        out = torch.empty_like(y)
        total = y.numel()
        bn_apply_kernel[(triton.cdiv(total, 1024),)](y, out, mean, rstd, self.bn.weight, self.bn.bias,
                                                     C, HW, total, BLOCK=1024)
        return out
