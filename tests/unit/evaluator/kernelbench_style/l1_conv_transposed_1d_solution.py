# An honest Triton ModelNew for l1_conv_transposed_1d.py (KernelBench level1/64): the module keeps an nn.ConvTranspose1d for its weight (in, out, k) and stride/padding, and a Triton kernel computes the gather form, out[b, o, t] = sum over i, k of x[b, i, (t + padding - k) / stride] w[i, o, k] where that index is whole and in range, as a tl.dot over input-channel blocks per tap (tl.static_range over the taps), the weight read through its strides.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_transpose1d_kernel(x_ptr, w_ptr, out_ptr, C_in, C_out, L_in, L_out, stride, padding,
                            sx_b, sx_c, sw_i, sw_o, sw_k, so_b, so_c,
                            KSIZE: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_I: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_o = tl.program_id(1)
    b = tl.program_id(2)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    o = pid_o * BLOCK_O + tl.arange(0, BLOCK_O)
    acc = tl.zeros((BLOCK_T, BLOCK_O), dtype=tl.float32)
    for k in tl.static_range(KSIZE):
        num = t + padding - k
        src = num // stride
        ok = (num >= 0) & (num % stride == 0) & (src < L_in) & (t < L_out)
        src = tl.where(ok, src, 0)
        for i0 in range(0, C_in, BLOCK_I):
            i = i0 + tl.arange(0, BLOCK_I)
            xv = tl.load(x_ptr + b * sx_b + i[None, :] * sx_c + src[:, None],
                         mask=ok[:, None] & (i[None, :] < C_in), other=0.0)
            wv = tl.load(w_ptr + i[:, None] * sw_i + o[None, :] * sw_o + k * sw_k,
                         mask=(i[:, None] < C_in) & (o[None, :] < C_out), other=0.0)
            acc += tl.dot(xv, wv)
    tl.store(out_ptr + b * so_b + o[None, :] * so_c + t[:, None], acc, mask=(t[:, None] < L_out) & (o[None, :] < C_out))


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=False):
        super(ModelNew, self).__init__()
        assert groups == 1 and not bias
        self.conv1d_transpose = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, output_padding=output_padding,
                                                   groups=groups, bias=bias)

    def forward(self, x):
        conv = self.conv1d_transpose
        w = conv.weight  # (in, out, k)
        B, C_in, L_in = x.shape
        C_out, K = w.shape[1], w.shape[2]
        s, p, op = conv.stride[0], conv.padding[0], conv.output_padding[0]
        L_out = (L_in - 1) * s - 2 * p + K + op
        out = torch.empty((B, C_out, L_out), device=x.device, dtype=x.dtype)
        BLOCK_T, BLOCK_O, BLOCK_I = 64, 32, 32
        grid = (triton.cdiv(L_out, BLOCK_T), triton.cdiv(C_out, BLOCK_O), B)
        conv_transpose1d_kernel[grid](x, w, out, C_in, C_out, L_in, L_out, s, p,
                                      x.stride(0), x.stride(1), w.stride(0), w.stride(1), w.stride(2),
                                      out.stride(0), out.stride(1),
                                      KSIZE=K, BLOCK_T=BLOCK_T, BLOCK_O=BLOCK_O, BLOCK_I=BLOCK_I)
        return out
