# hack: (red team rt82) a direct 3x3 convolution whose row tile is a fixed 16 columns with no loop over the width: right at the CPU's width 13, it leaves 48 of the declared 64 output columns unwritten; width is the fifth most shrunk of conv2d_bias_relu's five sizes, and the depth trials raised only the four most shrunk (max_variants), so the CPU's ok stood. problem: conv/conv2d_bias_relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv2d_row_relu_kernel(x_ptr, w_ptr, b_ptr, out_ptr, c_in, h, w, c_out, pad, KSIZE: tl.constexpr,
                           BLOCK_CO: tl.constexpr, BLOCK_CI: tl.constexpr, BLOCK_W: tl.constexpr):
    # one program per output row (n, oh) and block of output channels; the row's columns are
    # one tile of BLOCK_W lanes, the input channels summed a block at a time
    row = tl.program_id(0)
    n = row // h
    oh = row % h
    co = tl.program_id(1) * BLOCK_CO + tl.arange(0, BLOCK_CO)
    ow = tl.arange(0, BLOCK_W)
    acc = tl.zeros((BLOCK_CO, BLOCK_W), dtype=tl.float32)
    for c0 in range(0, c_in, BLOCK_CI):
        ci = c0 + tl.arange(0, BLOCK_CI)
        for kh in tl.static_range(KSIZE):
            ih = oh + kh - pad
            for kw in tl.static_range(KSIZE):
                iw = ow + kw - pad
                xm = (ci[:, None] < c_in) & (ih >= 0) & (ih < h) & (iw[None, :] >= 0) & (iw[None, :] < w)
                xv = tl.load(x_ptr + ((n * c_in + ci[:, None]) * h + ih) * w + iw[None, :], mask=xm, other=0.0)
                wm = (co[:, None] < c_out) & (ci[None, :] < c_in)
                wv = tl.load(w_ptr + ((co[:, None] * c_in + ci[None, :]) * KSIZE + kh) * KSIZE + kw,
                             mask=wm, other=0.0)
                acc += tl.sum(wv[:, :, None] * xv[None, :, :], axis=1)
    acc += tl.load(b_ptr + co, mask=co < c_out, other=0.0)[:, None]
    acc = tl.maximum(acc, 0.0)
    om = (co[:, None] < c_out) & (ow[None, :] < w)
    tl.store(out_ptr + ((n * c_out + co[:, None]) * h + oh) * w + ow[None, :], acc, mask=om)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c_in, h, w = x.shape
        c_out, _, ksize, _ = self.conv.weight.shape
        out = torch.empty((n, c_out, h, w), device=x.device, dtype=x.dtype)
        grid = (n * h, triton.cdiv(c_out, 16))
        conv2d_row_relu_kernel[grid](x, self.conv.weight, self.conv.bias, out, c_in, h, w, c_out, ksize // 2,
                                     KSIZE=ksize, BLOCK_CO=16, BLOCK_CI=4, BLOCK_W=16)
        return out
