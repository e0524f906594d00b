# An honest Triton ModelNew for KernelBench level1/81_conv_transposed_2D (stride 5, padding 1, dilation 2): the gather form written without clamping: ih = num // stride and num % stride taken on possibly negative num (C's truncation on the GPU, numpy's floor in the interpreter), the negative rows dropped by the `num >= 0` mask term, so both give the same loads; one program per (n, BLOCK_OC output channels, BLOCK_P output pixels), fp32 outer-product accumulation over input channels and the static taps, the ConvTranspose2d weight read as (C_in, C_out, K, K) by its strides.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_transpose2d_gather_kernel(x_ptr, w_ptr, y_ptr, C_in, H_in, W_in, C_out, H_out, W_out,
                                   sx_n, sx_c, sx_h, sx_w, sw_i, sw_o, sw_h, sw_w,
                                   stride, padding, dilation,
                                   KSIZE: tl.constexpr, BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr):
    n = tl.program_id(0)
    oc = tl.program_id(1) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p = tl.program_id(2) * BLOCK_P + tl.arange(0, BLOCK_P)
    ocm = oc < C_out
    pm = p < H_out * W_out
    oh = p // W_out
    ow = p % W_out
    acc = tl.zeros((BLOCK_OC, BLOCK_P), tl.float32)
    for ic in range(0, C_in):
        for kh in tl.static_range(KSIZE):
            num_h = oh + padding - kh * dilation
            ih = num_h // stride
            ok_h = (num_h >= 0) & (num_h % stride == 0) & (ih < H_in)
            for kw in tl.static_range(KSIZE):
                num_w = ow + padding - kw * dilation
                iw = num_w // stride
                ok = pm & ok_h & (num_w >= 0) & (num_w % stride == 0) & (iw < W_in)
                xv = tl.load(x_ptr + n * sx_n + ic * sx_c + ih * sx_h + iw * sx_w, mask=ok, other=0.0)
                wv = tl.load(w_ptr + ic * sw_i + oc * sw_o + kh * sw_h + kw * sw_w, mask=ocm, other=0.0)
                acc += wv[:, None] * xv[None, :]
    tl.store(y_ptr + ((n * C_out + oc[:, None]) * H_out + oh[None, :]) * W_out + ow[None, :], acc,
             mask=ocm[:, None] & pm[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv_transpose2d = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ct = self.conv_transpose2d
        w = ct.weight
        s, p, d = ct.stride[0], ct.padding[0], ct.dilation[0]
        K = ct.kernel_size[0]
        N, C_in, H_in, W_in = x.shape
        C_out = ct.out_channels
        H_out = (H_in - 1) * s - 2 * p + d * (K - 1) + 1
        W_out = (W_in - 1) * s - 2 * p + d * (K - 1) + 1
        y = torch.empty((N, C_out, H_out, W_out), device=x.device, dtype=torch.float32)
        BLOCK_OC, BLOCK_P = 8, 128
        grid = (N, triton.cdiv(C_out, BLOCK_OC), triton.cdiv(H_out * W_out, BLOCK_P))
        conv_transpose2d_gather_kernel[grid](x, w, y, C_in, H_in, W_in, C_out, H_out, W_out,
                                             x.stride(0), x.stride(1), x.stride(2), x.stride(3),
                                             w.stride(0), w.stride(1), w.stride(2), w.stride(3),
                                             s, p, d, KSIZE=K, BLOCK_OC=BLOCK_OC, BLOCK_P=BLOCK_P)
        if ct.bias is not None:
            y += ct.bias.view(1, -1, 1, 1)
        return y
