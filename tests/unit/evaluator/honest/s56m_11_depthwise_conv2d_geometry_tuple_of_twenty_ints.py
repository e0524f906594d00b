# honest: depthwise conv whose kernel takes its whole geometry as one tuple argument of 20 ints (the strides of x, weight and y, the sizes, padding), unpacked by index in the kernel (a tuple's ints past launch_args.TUPLE_INTS are counted as data). problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dw_conv_kernel(x_ptr, w_ptr, b_ptr, y_ptr, geo, KS: tl.constexpr, BLOCK: tl.constexpr):
    # geo: x strides (4), weight strides (4), y strides (4), N C H W, OH OW, pad h, pad w
    sxn, sxc, sxh, sxw = geo[0], geo[1], geo[2], geo[3]
    swc, swh, sww = geo[4], geo[6], geo[7]
    syn, syc, syh, syw = geo[8], geo[9], geo[10], geo[11]
    C, H, W = geo[13], geo[14], geo[15]
    OH, OW, PH, PW = geo[16], geo[17], geo[18], geo[19]
    nc = tl.program_id(0)
    n = nc // C
    c = nc % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    oh = offs // OW
    ow = offs % OW
    valid = offs < OH * OW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for kh in tl.static_range(KS):
        for kw in tl.static_range(KS):
            ih = oh + kh - PH
            iw = ow + kw - PW
            m = valid & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            x = tl.load(x_ptr + n * sxn + c * sxc + ih * sxh + iw * sxw, mask=m, other=0.0)
            acc += x * tl.load(w_ptr + c * swc + kh * swh + kw * sww)
    acc += tl.load(b_ptr + c)
    tl.store(y_ptr + n * syn + c * syc + oh * syh + ow * syw, acc, mask=valid)


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c, h, w = x.shape
        ks = self.conv.kernel_size[0]
        ph, pw = self.conv.padding
        oh, ow = h + 2 * ph - ks + 1, w + 2 * pw - ks + 1
        y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
        wt = self.conv.weight
        geo = (*x.stride(), *wt.stride(), *y.stride(), n, c, h, w, oh, ow, ph, pw)
        block = 256
        dw_conv_kernel[(n * c, triton.cdiv(oh * ow, block))](x, wt, self.conv.bias, y, geo, KS=ks, BLOCK=block)
        return y
