import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def depthwise_conv2d_kernel(x_ptr, w_ptr, b_ptr, out_ptr, channels, h, w, padding,
                            KSIZE: tl.constexpr, BLOCK: tl.constexpr):
    plane = tl.program_id(0)  # one (sample, channel) plane
    c = plane % channels
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < h * w
    oh = offs // w
    ow = offs % w
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for kh in tl.static_range(KSIZE):
        for kw in tl.static_range(KSIZE):
            ih = oh + kh - padding
            iw = ow + kw - padding
            m = valid & (ih >= 0) & (ih < h) & (iw >= 0) & (iw < w)
            xv = tl.load(x_ptr + plane * h * w + ih * w + iw, mask=m, other=0.0)
            acc += xv * tl.load(w_ptr + c * KSIZE * KSIZE + kh * KSIZE + kw)
    acc += tl.load(b_ptr + c)
    tl.store(out_ptr + plane * h * w + offs, acc, mask=valid)


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2,
                              groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c, h, w = x.shape
        ksize = self.conv.kernel_size[0]
        out = torch.empty_like(x)  # padding k // 2 keeps the spatial size
        BLOCK = 1024
        depthwise_conv2d_kernel[(n * c, triton.cdiv(h * w, BLOCK))](
            x, self.conv.weight, self.conv.bias, out, c, h, w, self.conv.padding[0],
            KSIZE=ksize, BLOCK=BLOCK)
        return out
