# honest: depthwise 3x3 convolution with one program per (image, channel, tile of rows, tile of columns), each tap a 2-D make_block_ptr at the shifted (possibly negative) offset loaded with boundary_check and zero padding, the taps unrolled by tl.static_range, bias added in the epilogue. problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dw_conv_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, H, W,
                   sxn, sxc, sxh, sxw, syn, syc, syh, syw,
                   KS: tl.constexpr, PAD: tl.constexpr, BH: tl.constexpr, BW: tl.constexpr):
    nc = tl.program_id(0)
    h0 = tl.program_id(1) * BH
    w0 = tl.program_id(2) * BW
    n = nc // C
    c = nc % C
    x_base = x_ptr + n * sxn + c * sxc
    acc = tl.zeros((BH, BW), dtype=tl.float32)
    for kh in tl.static_range(KS):
        for kw in tl.static_range(KS):
            blk = tl.make_block_ptr(x_base, shape=(H, W), strides=(sxh, sxw),
                                    offsets=(h0 + kh - PAD, w0 + kw - PAD), block_shape=(BH, BW), order=(1, 0))
            tap = tl.load(blk, boundary_check=(0, 1), padding_option="zero")
            acc += tap * tl.load(w_ptr + c * KS * KS + kh * KS + kw)
    acc += tl.load(b_ptr + c)
    out = tl.make_block_ptr(y_ptr + n * syn + c * syc, shape=(H, W), strides=(syh, syw),
                            offsets=(h0, w0), block_shape=(BH, BW), order=(1, 0))
    tl.store(out, acc, boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, H, W = x.shape
        ks = self.conv.kernel_size[0]
        y = torch.empty_like(x)
        w = self.conv.weight.reshape(C, ks * ks)
        BH, BW = 16, 32
        grid = (N * C, triton.cdiv(H, BH), triton.cdiv(W, BW))
        dw_conv_kernel[grid](x, w, self.conv.bias, y, C, H, W, *x.stride(), *y.stride(),
                             KS=ks, PAD=self.conv.padding[0], BH=BH, BW=BW, num_warps=4)
        return y
