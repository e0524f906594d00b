# honest: conv1d + bias + ReLU with one launch per (image, block of 48 output channels), the last block ragged, handed the whole tensors with the image index, first channel and channel count as ints. problem: conv/conv1d_bias_relu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _conv1d_block(x_ptr, w_ptr, b_ptr, y_ptr, n, co0, n_co, c_in, length, pad,
                  KS: tl.constexpr, BLOCK_CO: tl.constexpr, BLOCK_L: tl.constexpr):
    co = co0 + tl.arange(0, BLOCK_CO)
    co_mask = tl.arange(0, BLOCK_CO) < n_co
    l = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    acc = tl.zeros((BLOCK_CO, BLOCK_L), tl.float32)
    for ci in range(0, c_in):
        for k in tl.static_range(KS):
            pos = l + k - pad
            xv = tl.load(x_ptr + (n * c_in + ci) * length + pos, mask=(pos >= 0) & (pos < length), other=0.0)
            wv = tl.load(w_ptr + (co * c_in + ci) * KS + k, mask=co_mask, other=0.0)
            acc += wv[:, None] * xv[None, :]
    acc += tl.load(b_ptr + co, mask=co_mask, other=0.0)[:, None]
    acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + co[:, None] * length + l[None, :], acc, mask=co_mask[:, None] & (l[None, :] < length))


class ModelNew(nn.Module):
    CO_BLOCK = 48

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        x = x.contiguous()
        N, c_in, L = x.shape
        w, b = self.conv.weight, self.conv.bias
        c_out, _, ks = w.shape
        y = torch.empty((N, c_out, L), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(L, 64), 1)
        for n in range(N):
            yn = y[n]
            for co0 in range(0, c_out, self.CO_BLOCK):
                n_co = min(self.CO_BLOCK, c_out - co0)
                _conv1d_block[grid](x, w, b, yn, n, co0, n_co, c_in, L, self.conv.padding[0],
                                    KS=ks, BLOCK_CO=64, BLOCK_L=64)
        return y
