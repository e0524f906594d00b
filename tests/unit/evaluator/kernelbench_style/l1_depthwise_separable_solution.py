# An honest Triton ModelNew for l1_depthwise_separable.py (KernelBench level1/86): two kernels, as most solutions split it: a direct depthwise convolution (one program per (n*c, block of output pixels), taps unrolled with tl.static_range, stride/padding/dilation honoured) into an intermediate, then the pointwise 1x1 convolution as a channels GEMM with tl.dot over (pixels x C_in) @ (C_in x C_out), the pointwise weight viewed as (C_out, C_in) and read transposed through its strides.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def depthwise_kernel(x_ptr, w_ptr, y_ptr, C, H, W, OH, OW, stride, padding, dilation,
                     KS: tl.constexpr, BLOCK: tl.constexpr):
    nc = tl.program_id(0)
    c = nc % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    oh = offs // OW
    ow = offs % OW
    valid = offs < OH * OW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    x_base = x_ptr + nc.to(tl.int64) * H * W
    for kh in tl.static_range(KS):
        ih = oh * stride - padding + kh * dilation
        for kw in tl.static_range(KS):
            iw = ow * stride - padding + kw * dilation
            m = valid & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            xv = tl.load(x_base + ih * W + iw, mask=m, other=0.0)
            acc += xv * tl.load(w_ptr + c * KS * KS + kh * KS + kw)
    tl.store(y_ptr + nc.to(tl.int64) * OH * OW + offs, acc, mask=valid)


@triton.jit
def pointwise_kernel(y_ptr, w_ptr, out_ptr, C_in, C_out, P, sw_o, sw_i,
                     BLOCK_P: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_I: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_o = tl.program_id(1)
    n = tl.program_id(2)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    o = pid_o * BLOCK_O + tl.arange(0, BLOCK_O)
    acc = tl.zeros((BLOCK_P, BLOCK_O), dtype=tl.float32)
    y_base = y_ptr + n.to(tl.int64) * C_in * P
    for i0 in range(0, C_in, BLOCK_I):
        i = i0 + tl.arange(0, BLOCK_I)
        a = tl.load(y_base + i[None, :] * P + p[:, None], mask=(p[:, None] < P) & (i[None, :] < C_in), other=0.0)
        b = tl.load(w_ptr + o[None, :] * sw_o + i[:, None] * sw_i, mask=(i[:, None] < C_in) & (o[None, :] < C_out), other=0.0)
        acc += tl.dot(a, b)
    out_base = out_ptr + n.to(tl.int64) * C_out * P
    tl.store(out_base + o[None, :] * P + p[:, None], acc, mask=(p[:, None] < P) & (o[None, :] < C_out))


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False):
        super(ModelNew, self).__init__()
        assert not bias
        self.depthwise = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                                   dilation=dilation, groups=in_channels, bias=bias)
        self.pointwise = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=bias)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        dw = self.depthwise
        k, s, p, d = dw.kernel_size[0], dw.stride[0], dw.padding[0], dw.dilation[0]
        OH = (H + 2 * p - d * (k - 1) - 1) // s + 1
        OW = (W + 2 * p - d * (k - 1) - 1) // s + 1
        y = torch.empty((N, C, OH, OW), device=x.device, dtype=torch.float32)
        BLOCK = 256
        depthwise_kernel[(N * C, triton.cdiv(OH * OW, BLOCK))](x, dw.weight, y, C, H, W, OH, OW, s, p, d,
                                                                 KS=k, BLOCK=BLOCK)
        w2 = self.pointwise.weight.view(self.pointwise.out_channels, C)
        C_out = w2.shape[0]
        out = torch.empty((N, C_out, OH, OW), device=x.device, dtype=torch.float32)
        P = OH * OW
        grid = (triton.cdiv(P, 64), triton.cdiv(C_out, 32), N)
        pointwise_kernel[grid](y, w2, out, C, C_out, P, w2.stride(0), w2.stride(1),
                               BLOCK_P=64, BLOCK_O=32, BLOCK_I=16)
        return out
