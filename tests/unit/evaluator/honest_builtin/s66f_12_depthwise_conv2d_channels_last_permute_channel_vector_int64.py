# honest: depthwise 3x3 conv in channels-last layout as some vision kernels do: the input permuted to NHWC and made contiguous, each program a block of BLOCK_P flattened output pixels of one image with the channel vector innermost (loads coalesced over C), taps unrolled with tl.static_range and zero padding by masks, int64 pixel offsets, result permuted back to NCHW. problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dwconv_nhwc_kernel(x_ptr, w_ptr, b_ptr, y_ptr, H, W, C,
                       KS: tl.constexpr, PAD: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    p_mask = p < H * W
    oh = p // W
    ow = p % W
    cc = tl.arange(0, BLOCK_C)
    c_mask = cc < C
    acc = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
    img = n.to(tl.int64) * H * W * C
    for i in tl.static_range(KS):
        for j in tl.static_range(KS):
            ih = oh + (i - PAD)
            iw = ow + (j - PAD)
            ok = p_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            pix = img + (ih.to(tl.int64) * W + iw) * C
            xv = tl.load(x_ptr + pix[:, None] + cc[None, :], mask=ok[:, None] & c_mask[None, :], other=0.0)
            wv = tl.load(w_ptr + cc * (KS * KS) + (i * KS + j), mask=c_mask, other=0.0)
            acc += xv * wv[None, :]
    acc += tl.load(b_ptr + cc, mask=c_mask, other=0.0)[None, :]
    out = img + p.to(tl.int64) * C
    tl.store(y_ptr + out[:, None] + cc[None, :], acc, mask=p_mask[:, None] & c_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c, h, w = x.shape
        x_nhwc = x.permute(0, 2, 3, 1).contiguous()
        y_nhwc = torch.empty_like(x_nhwc)
        ks = self.conv.kernel_size[0]
        weight = self.conv.weight.reshape(c, ks * ks).contiguous()
        BLOCK_P = 128
        BLOCK_C = triton.next_power_of_2(c)
        grid = (n, triton.cdiv(h * w, BLOCK_P))
        dwconv_nhwc_kernel[grid](x_nhwc, weight, self.conv.bias, y_nhwc, h, w, c,
                                 KS=ks, PAD=self.conv.padding[0], BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C)
        return y_nhwc.permute(0, 3, 1, 2).contiguous()
