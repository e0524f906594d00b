# honest: the convolution as one Triton launch per image and slice of output channels (8 slices, widths as even as the count allows: 16 launches a forward at the CPU's 2 images), each handed its image, weight and output slices with their strides, the channel counts, spatial sizes, stride, padding and dilation as ints: a per-layer model's ladder of sizes, all of them the handed tensors' own. problem: conv/conv2d_bias_relu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_slice_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_pix, c_in, h, w, c_slice, h_out, w_out,
                      sxn, sxc, sxh, sxw, syn, syc, syh, syw, stride, padding, dilation,
                      KSIZE: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr,
                      BLOCK_R: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    co = tl.program_id(1) * BLOCK_CO + tl.arange(0, BLOCK_CO)
    n = p // (h_out * w_out)
    oh = (p // w_out) % h_out
    ow = p % w_out
    n_red = c_in * KSIZE * KSIZE
    acc = tl.zeros((BLOCK_P, BLOCK_CO), dtype=tl.float32)
    for r0 in range(0, n_red, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        ci = r // (KSIZE * KSIZE)
        kh = (r // KSIZE) % KSIZE
        kw = r % KSIZE
        ih = oh[:, None] * stride + kh[None, :] * dilation - padding
        iw = ow[:, None] * stride + kw[None, :] * dilation - padding
        ok = (p[:, None] < n_pix) & (r[None, :] < n_red) & (ih >= 0) & (ih < h) & (iw >= 0) & (iw < w)
        xv = tl.load(x_ptr + n[:, None] * sxn + ci[None, :] * sxc + ih * sxh + iw * sxw, mask=ok, other=0.0)
        wv = tl.load(w_ptr + co[None, :] * n_red + r[:, None],
                     mask=(r[:, None] < n_red) & (co[None, :] < c_slice), other=0.0)
        acc = tl.dot(xv, wv, acc, input_precision="ieee")
    acc += tl.load(b_ptr + co, mask=co < c_slice, other=0.0)[None, :]
    acc = tl.maximum(acc, 0.0)
    y_offs = n[:, None] * syn + co[None, :] * syc + oh[:, None] * syh + ow[:, None] * syw
    tl.store(y_ptr + y_offs, acc, mask=(p[:, None] < n_pix) & (co[None, :] < c_slice))


class ModelNew(nn.Module):
    SLICES = 8

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c_in, h, w = x.shape
        weight, bias = self.conv.weight, self.conv.bias
        c_out, _, ksize, _ = weight.shape
        stride, pad, dil = self.conv.stride[0], self.conv.padding[0], self.conv.dilation[0]
        h_out = (h + 2 * pad - dil * (ksize - 1) - 1) // stride + 1
        w_out = (w + 2 * pad - dil * (ksize - 1) - 1) // stride + 1
        y = torch.empty((n, c_out, h_out, w_out), device=x.device, dtype=x.dtype)
        n_pix = h_out * w_out  # one image a launch
        slices = min(self.SLICES, c_out)
        bounds = [i * c_out // slices for i in range(slices + 1)]
        for i in range(n):
            xi = x[i:i + 1]
            for lo, hi in zip(bounds[:-1], bounds[1:]):
                ws, bs, ys = weight[lo:hi], bias[lo:hi], y[i:i + 1, lo:hi]
                block_co = max(16, triton.next_power_of_2(hi - lo))
                grid = (triton.cdiv(n_pix, 64), triton.cdiv(hi - lo, block_co))
                conv_slice_kernel[grid](xi, ws, bs, ys, n_pix, c_in, h, w, hi - lo, h_out, w_out,
                                        *xi.stride(), *ys.stride(), stride, pad, dil,
                                        KSIZE=ksize, BLOCK_P=64, BLOCK_CO=block_co, BLOCK_R=32)
        return y
