# An honest Triton ModelNew for KernelBench level2/73_Conv2d_BatchNorm_Scaling: cuDNN convolution (self.conv), then BatchNorm2d's training-mode statistics by a Triton kernel with a (channel, split) grid accumulating per-channel sum and sum of squares into zeroed fp32 buffers with tl.atomic_add, and a Triton normalise + affine + scale pass; running statistics updated in torch (torch.no_grad), eval mode reading them instead.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_partial_stats_kernel(y_ptr, sum_ptr, sumsq_ptr, N, C, HW, SPLITS, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    split = tl.program_id(1)
    total = N * HW
    s = tl.zeros((BLOCK,), tl.float32)
    ss = tl.zeros((BLOCK,), tl.float32)
    for start in range(split * BLOCK, total, SPLITS * BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < total
        n = idx // HW
        hw = idx % HW
        v = tl.load(y_ptr + (n * C + c) * HW + hw, mask=m, other=0.0)
        s += v
        ss += v * v
    tl.atomic_add(sum_ptr + c, tl.sum(s, axis=0))
    tl.atomic_add(sumsq_ptr + c, tl.sum(ss, axis=0))


@triton.jit
def bn_apply_scale_kernel(y_ptr, out_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, n_elements, C, HW, eps, scale,
                          BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_elements
    c = (offs // HW) % C
    v = tl.load(y_ptr + offs, mask=m, other=0.0)
    mean = tl.load(mean_ptr + c, mask=m, other=0.0)
    var = tl.load(var_ptr + c, mask=m, other=1.0)
    g = tl.load(w_ptr + c, mask=m, other=1.0)
    b = tl.load(b_ptr + c, mask=m, other=0.0)
    tl.store(out_ptr + offs, ((v - mean) / tl.sqrt(var + eps) * g + b) * scale, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bn = nn.BatchNorm2d(out_channels)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C, H, W = y.shape
        HW = H * W
        bn = self.bn
        if self.training:
            sums = torch.zeros(C, device=y.device, dtype=torch.float32)
            sumsq = torch.zeros(C, device=y.device, dtype=torch.float32)
            SPLITS = 4
            bn_partial_stats_kernel[(C, SPLITS)](y, sums, sumsq, N, C, HW, SPLITS, BLOCK=256)
            cnt = N * HW
            mean = sums / cnt
            var = (sumsq / cnt - mean * mean).clamp_min(0.0)
            with torch.no_grad():
                bn.running_mean.mul_(1 - bn.momentum).add_(mean, alpha=bn.momentum)
                bn.running_var.mul_(1 - bn.momentum).add_(var * (cnt / max(cnt - 1, 1)), alpha=bn.momentum)
                bn.num_batches_tracked += 1
        else:
            mean, var = bn.running_mean, bn.running_var
        out = torch.empty_like(y)
        n = y.numel()
        BLOCK = 1024
        bn_apply_scale_kernel[(triton.cdiv(n, BLOCK),)](y, out, mean, var, bn.weight, bn.bias, n, C, HW, bn.eps,
                                                        float(self.scaling_factor), BLOCK=BLOCK)
        return out
