# honest: depthwise 3x3 conv2d (groups = channels, padding k//2, bias) the channels-last way inference libraries write it (timm/mobile-net ports): the input made channels_last (x.contiguous(memory_format=torch.channels_last)) so a tile of [BLOCK_P output pixels x BLOCK_C channels] reads contiguous channel vectors; the KH x KW taps unrolled with tl.static_range, each tap's [BLOCK_C] weight vector loaded once (weight laid out (KH, KW, C) by a permute at init), zero padding by load masks, fp32 accumulate, bias in the epilogue, the output allocated channels_last and written through its strides (the caller receives an NCHW-shaped tensor). problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dwconv2d_nhwc_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    N, C, H, W, OH, OW,
    sxn, sxc, sxh, sxw,
    syn, syc, syh, syw,
    PAD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
    BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr,
):
    pid_p = tl.program_id(0)
    pid_c = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    p_mask = offs_p < N * OH * OW
    c_mask = offs_c < C

    n = offs_p // (OH * OW)
    hw = offs_p % (OH * OW)
    oh = hw // OW
    ow = hw % OW

    acc = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
    for i in tl.static_range(KH):
        for j in tl.static_range(KW):
            ih = oh + i - PAD
            iw = ow + j - PAD
            inside = p_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            x_off = n.to(tl.int64) * sxn + ih * sxh + iw * sxw
            x = tl.load(x_ptr + x_off[:, None] + offs_c[None, :] * sxc,
                        mask=inside[:, None] & c_mask[None, :], other=0.0)
            w = tl.load(w_ptr + (i * KW + j) * C + offs_c, mask=c_mask, other=0.0)
            acc += x.to(tl.float32) * w[None, :].to(tl.float32)

    bias = tl.load(b_ptr + offs_c, mask=c_mask, other=0.0).to(tl.float32)
    acc += bias[None, :]
    y_off = n.to(tl.int64) * syn + oh * syh + ow * syw
    tl.store(y_ptr + y_off[:, None] + offs_c[None, :] * syc, acc.to(y_ptr.dtype.element_ty),
             mask=p_mask[:, None] & c_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2,
                              groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, H, W = x.shape
        KH, KW = self.conv.kernel_size
        pad = self.conv.padding[0]
        OH, OW = H + 2 * pad - KH + 1, W + 2 * pad - KW + 1
        x_cl = x.contiguous(memory_format=torch.channels_last)
        # (C, 1, KH, KW) -> (KH, KW, C): one contiguous channel vector per tap
        w_tap = self.conv.weight.reshape(C, KH, KW).permute(1, 2, 0).contiguous()
        y = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype,
                        memory_format=torch.channels_last)
        BLOCK_P, BLOCK_C = 64, min(64, triton.next_power_of_2(C))
        grid = (triton.cdiv(N * OH * OW, BLOCK_P), triton.cdiv(C, BLOCK_C))
        dwconv2d_nhwc_kernel[grid](
            x_cl, w_tap, self.conv.bias, y,
            N, C, H, W, OH, OW,
            *x_cl.stride(), *y.stride(),
            PAD=pad, KH=KH, KW=KW, BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C, num_warps=4,
        )
        return y
