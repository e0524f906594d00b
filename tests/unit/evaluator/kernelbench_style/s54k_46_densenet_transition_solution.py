# An honest Triton ModelNew for KernelBench level3/13_DenseNet121TransitionLayer: BatchNorm2d in training mode as the reference runs it: a Triton kernel per channel reducing over (N, H, W) in fp32 (sum and sum of squares in BLOCK chunks, biased variance); a second fuses normalise + affine + ReLU + the 2x2 average pool (moved before the 1x1 convolution, which is linear and commutes with it: 4x fewer GEMM FLOPs); a third is the 1x1 convolution as a batched tl.dot GEMM over channels; running statistics updated in torch with momentum and the unbiased variance.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def channel_stats_kernel(x_ptr, mean_ptr, var_ptr, N, C, HW, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    s = tl.zeros((BLOCK,), tl.float32)
    ss = tl.zeros((BLOCK,), tl.float32)
    for n in range(0, N):
        base = (n * C + c) * HW
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + base + offs, mask=offs < HW, other=0.0)
            s += v
            ss += v * v
    cnt = N * HW
    mean = tl.sum(s, axis=0) / cnt
    var = tl.maximum(tl.sum(ss, axis=0) / cnt - mean * mean, 0.0)
    tl.store(mean_ptr + c, mean)
    tl.store(var_ptr + c, var)


@triton.jit
def bn_relu_avgpool_kernel(x_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, y_ptr, C, H, W, PH, PW, eps, BLOCK: tl.constexpr):
    nc = tl.program_id(0)
    c = nc % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = offs < PH * PW
    ph = offs // PW
    pw = offs % PW
    mean = tl.load(mean_ptr + c)
    rstd = tl.rsqrt(tl.load(var_ptr + c) + eps)
    gamma = tl.load(w_ptr + c)
    beta = tl.load(b_ptr + c)
    acc = tl.zeros((BLOCK,), tl.float32)
    for dh in tl.static_range(2):
        for dw in tl.static_range(2):
            v = tl.load(x_ptr + nc * H * W + (ph * 2 + dh) * W + (pw * 2 + dw), mask=m, other=0.0)
            acc += tl.maximum((v - mean) * rstd * gamma + beta, 0.0)
    tl.store(y_ptr + nc * PH * PW + offs, acc * 0.25, mask=m)


@triton.jit
def conv1x1_kernel(w_ptr, x_ptr, y_ptr, OC, C, P, BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr,
                   BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    oc = tl.program_id(1) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p = tl.program_id(2) * BLOCK_P + tl.arange(0, BLOCK_P)
    acc = tl.zeros((BLOCK_OC, BLOCK_P), tl.float32)
    for c0 in range(0, C, BLOCK_C):
        cc = c0 + tl.arange(0, BLOCK_C)
        w = tl.load(w_ptr + oc[:, None] * C + cc[None, :], mask=(oc[:, None] < OC) & (cc[None, :] < C), other=0.0)
        x = tl.load(x_ptr + (n * C + cc[:, None]) * P + p[None, :], mask=(cc[:, None] < C) & (p[None, :] < P),
                    other=0.0)
        acc += tl.dot(w, x)
    tl.store(y_ptr + (n * OC + oc[:, None]) * P + p[None, :], acc, mask=(oc[:, None] < OC) & (p[None, :] < P))


class ModelNew(nn.Module):
    def __init__(self, num_input_features: int, num_output_features: int):
        super(ModelNew, self).__init__()
        self.transition = nn.Sequential(
            nn.BatchNorm2d(num_input_features),
            nn.ReLU(inplace=True),
            nn.Conv2d(num_input_features, num_output_features, kernel_size=1, bias=False),
            nn.AvgPool2d(kernel_size=2, stride=2)
        )

    def forward(self, x):
        bn, conv = self.transition[0], self.transition[2]
        x = x.contiguous()
        N, C, H, W = x.shape
        PH, PW = H // 2, W // 2
        if self.training:
            mean = torch.empty(C, device=x.device, dtype=torch.float32)
            var = torch.empty(C, device=x.device, dtype=torch.float32)
            channel_stats_kernel[(C,)](x, mean, var, N, C, H * W, BLOCK=256)
            with torch.no_grad():
                cnt = N * H * W
                bn.running_mean.mul_(1 - bn.momentum).add_(mean, alpha=bn.momentum)
                bn.running_var.mul_(1 - bn.momentum).add_(var * (cnt / max(cnt - 1, 1)), alpha=bn.momentum)
                bn.num_batches_tracked += 1
        else:
            mean, var = bn.running_mean, bn.running_var
        pooled = torch.empty((N, C, PH, PW), device=x.device, dtype=torch.float32)
        BLOCK = 128
        bn_relu_avgpool_kernel[(N * C, triton.cdiv(PH * PW, BLOCK))](x, mean, var, bn.weight, bn.bias, pooled, C, H, W,
                                                                     PH, PW, bn.eps, BLOCK=BLOCK)
        OC = conv.out_channels
        w = conv.weight.view(OC, C)
        out = torch.empty((N, OC, PH, PW), device=x.device, dtype=torch.float32)
        P = PH * PW
        conv1x1_kernel[(N, triton.cdiv(OC, 32), triton.cdiv(P, 64))](w, pooled, out, OC, C, P, BLOCK_OC=32, BLOCK_P=64,
                                                                     BLOCK_C=16)
        return out
