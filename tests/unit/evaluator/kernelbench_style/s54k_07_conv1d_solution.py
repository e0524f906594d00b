# An honest Triton ModelNew for KernelBench level1/67_conv_standard_1D: a direct convolution, one program per (batch, BLOCK_OC output channels, BLOCK_L positions) accumulating outer products in fp32 over input channels and a tl.static_range over the taps, stride/padding/dilation honoured, the nn.Conv1d kept for its weight (and optional bias), strides passed explicitly.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                  C_in, L_in, C_out, L_out,
                  stride_xn, stride_xc, stride_xl,
                  stride_wo, stride_wi, stride_wk,
                  stride_yn, stride_yc, stride_yl,
                  conv_stride, padding, dilation,
                  KSIZE: tl.constexpr, HAS_BIAS: tl.constexpr,
                  BLOCK_OC: tl.constexpr, BLOCK_L: tl.constexpr):
    n = tl.program_id(0)
    pid_oc = tl.program_id(1)
    pid_l = tl.program_id(2)
    oc = pid_oc * BLOCK_OC + tl.arange(0, BLOCK_OC)
    ol = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    oc_mask = oc < C_out
    ol_mask = ol < L_out
    acc = tl.zeros((BLOCK_OC, BLOCK_L), dtype=tl.float32)
    for ic in range(0, C_in):
        for k in tl.static_range(KSIZE):
            il = ol * conv_stride - padding + k * dilation
            x_mask = ol_mask & (il >= 0) & (il < L_in)
            xv = tl.load(x_ptr + n * stride_xn + ic * stride_xc + il * stride_xl, mask=x_mask, other=0.0)
            wv = tl.load(w_ptr + oc * stride_wo + ic * stride_wi + k * stride_wk, mask=oc_mask, other=0.0)
            acc += wv[:, None].to(tl.float32) * xv[None, :].to(tl.float32)
    if HAS_BIAS:
        bias = tl.load(b_ptr + oc, mask=oc_mask, other=0.0)
        acc += bias[:, None]
    y_ptrs = y_ptr + n * stride_yn + oc[:, None] * stride_yc + ol[None, :] * stride_yl
    tl.store(y_ptrs, acc, mask=oc_mask[:, None] & ol_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        assert groups == 1
        self.conv1d = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = self.conv1d.weight
        b = self.conv1d.bias
        s, p, d = self.conv1d.stride[0], self.conv1d.padding[0], self.conv1d.dilation[0]
        N, C_in, L_in = x.shape
        C_out, _, K = w.shape
        L_out = (L_in + 2 * p - d * (K - 1) - 1) // s + 1
        y = torch.empty((N, C_out, L_out), device=x.device, dtype=x.dtype)
        BLOCK_OC, BLOCK_L = 16, 128
        grid = (N, triton.cdiv(C_out, BLOCK_OC), triton.cdiv(L_out, BLOCK_L))
        conv1d_kernel[grid](x, w, b if b is not None else w, y,
                            C_in, L_in, C_out, L_out,
                            x.stride(0), x.stride(1), x.stride(2),
                            w.stride(0), w.stride(1), w.stride(2),
                            y.stride(0), y.stride(1), y.stride(2),
                            s, p, d, KSIZE=K, HAS_BIAS=b is not None, BLOCK_OC=BLOCK_OC, BLOCK_L=BLOCK_L)
        return y
