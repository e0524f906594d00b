# honest: x * weight + bias over (tokens, features) as a functional wrapper `scale_bias(x, w, b, *, out=None)` that allocates torch.empty_like(x) when out is None, 2D tiles (BLOCK_T tokens x BLOCK_F features) loading the weight/bias vector slice once per tile, strides passed in. problem: elementwise/scale_bias
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scale_bias_2d(x_ptr, w_ptr, b_ptr, y_ptr, T, F, stride_xt, stride_yt,
                   BLOCK_T: tl.constexpr, BLOCK_F: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    f = tl.program_id(1) * BLOCK_F + tl.arange(0, BLOCK_F)
    fmask = f < F
    mask = (t[:, None] < T) & fmask[None, :]
    w = tl.load(w_ptr + f, mask=fmask, other=0.0)
    b = tl.load(b_ptr + f, mask=fmask, other=0.0)
    x = tl.load(x_ptr + t[:, None] * stride_xt + f[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + t[:, None] * stride_yt + f[None, :], x * w[None, :] + b[None, :], mask=mask)


def scale_bias(x, weight, bias, *, out=None):
    assert x.shape[-1] == weight.numel() == bias.numel()
    x2 = x.reshape(-1, x.shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    if out is None:
        out = torch.empty_like(x2)
    T, F = x2.shape
    BT, BF = 16, 128
    _scale_bias_2d[(triton.cdiv(T, BT), triton.cdiv(F, BF))](
        x2, weight, bias, out, T, F, x2.stride(0), out.stride(0), BLOCK_T=BT, BLOCK_F=BF)
    return out.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x):
        return scale_bias(x, self.weight, self.bias)
