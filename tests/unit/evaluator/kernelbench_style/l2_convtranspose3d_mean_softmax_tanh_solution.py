# An honest Triton ModelNew for l2_convtranspose3d_mean_softmax_tanh.py (KernelBench level2/13): the transposed convolution stays in cuDNN (the model's own module); one Triton program per block of (batch, h*w) positions holds every channel (a power-of-two channel block), averages over depth in a loop, adds the bias, takes the softmax over channels, tanh written with exp, and the scale, storing the (B, C, 1, H, W) result; the position block picked by a heuristic from the channel count.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"BLOCK_P": lambda args: max(16, 4096 // args["BLOCK_C"])})
@triton.jit
def mean_softmax_tanh_kernel(x_ptr, bias_ptr, out_ptr, C, D, HW, total, scale,
                             BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    pos = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)  # flattened (b, hw)
    ch = tl.arange(0, BLOCK_C)
    pmask = pos < total
    cmask = ch < C
    b = pos // HW
    hw = pos % HW
    base = b.to(tl.int64) * C * D * HW + hw
    acc = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
    m2 = pmask[:, None] & cmask[None, :]
    for d in range(0, D):
        acc += tl.load(x_ptr + base[:, None] + (ch[None, :] * D + d) * HW, mask=m2, other=0.0)
    v = acc / D + tl.load(bias_ptr + ch, mask=cmask, other=0.0)[None, :]
    v = tl.where(cmask[None, :], v, float("-inf"))
    e = tl.exp(v - tl.max(v, axis=1)[:, None])
    e = tl.where(cmask[None, :], e, 0.0)
    p = e / tl.sum(e, axis=1)[:, None]
    t = tl.exp(2.0 * p)
    y = (t - 1.0) / (t + 1.0) * scale
    tl.store(out_ptr + b[:, None].to(tl.int64) * C * HW + ch[None, :] * HW + hw[:, None], y, mask=m2)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.bias = nn.Parameter(torch.randn(1, out_channels, 1, 1, 1))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = self.conv_transpose(x).contiguous()
        B, C, D, H, W = y.shape
        out = torch.empty((B, C, 1, H, W), device=y.device, dtype=y.dtype)
        total = B * H * W
        BLOCK_C = triton.next_power_of_2(C)
        grid = lambda meta: (triton.cdiv(total, meta["BLOCK_P"]),)
        mean_softmax_tanh_kernel[grid](y, self.bias, out, C, D, H * W, total, self.scaling_factor, BLOCK_C=BLOCK_C)
        return out
