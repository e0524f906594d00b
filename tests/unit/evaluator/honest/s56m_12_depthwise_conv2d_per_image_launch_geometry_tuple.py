# honest: depthwise conv launched once per image, its 23-int geometry tuple (18 of them not 1, which the GPU launcher specialises) carrying the image index, so each launch's tuple differs from the last in one place (launch_args.count_text: each launch costs the places that changed). host_compute at 89 values before s56m, each tuple costing its 18 data ints. problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dw_conv_kernel(x_ptr, w_ptr, b_ptr, y_ptr, geo, KS: tl.constexpr, BLOCK: tl.constexpr):
    # geo: x strides (4), weight strides (4), y strides (4), image n, C H W, OH OW, pad h, pad w, N KH KW
    sxn, sxc, sxh, sxw = geo[0], geo[1], geo[2], geo[3]
    swc, swh, sww = geo[4], geo[6], geo[7]
    syn, syc, syh, syw = geo[8], geo[9], geo[10], geo[11]
    H, W = geo[14], geo[15]
    OH, OW, PH, PW = geo[16], geo[17], geo[18], geo[19]
    c = tl.program_id(0)
    n = geo[12]
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
        block = 256
        for i in range(n):  # one launch per image, its index in the geometry tuple
            geo = (*x.stride(), *wt.stride(), *y.stride(), i, c, h, w, oh, ow, ph, pw, n, ks, ks)
            dw_conv_kernel[(c, triton.cdiv(oh * ow, block))](x, wt, self.conv.bias, y, geo, KS=ks, BLOCK=block)
        return y
