# honest: LayerNorm with 1-D block pointers over each row: mean and variance in two passes over column tiles that load with boundary_check=(0,) and padding_option="zero" (the padded zeros add nothing to the sums; the variance pass masks its centred values with tl.where), the pointer moved with the tensor method .advance((BLOCK,)), a fresh pointer per pass, weight and bias read through block pointers too, and the output stored with boundary_check=(0,). problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_fwd(X, Y, W, B, stride_row, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = X + row * stride_row
    y_row = Y + row * stride_row
    xp = tl.make_block_ptr(x_row, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for _ in range(0, N, BLOCK):
        acc += tl.load(xp, boundary_check=(0,), padding_option="zero").to(tl.float32)
        xp = xp.advance((BLOCK,))
    mean = tl.sum(acc, axis=0) / N

    xp = tl.make_block_ptr(x_row, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        x = tl.load(xp, boundary_check=(0,), padding_option="zero").to(tl.float32)
        cols = off + tl.arange(0, BLOCK)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
        xp = xp.advance((BLOCK,))
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)

    xp = tl.make_block_ptr(x_row, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    wp = tl.make_block_ptr(W, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    bp = tl.make_block_ptr(B, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    yp = tl.make_block_ptr(y_row, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    for _ in range(0, N, BLOCK):
        x = tl.load(xp, boundary_check=(0,), padding_option="zero").to(tl.float32)
        w = tl.load(wp, boundary_check=(0,), padding_option="zero")
        b = tl.load(bp, boundary_check=(0,), padding_option="zero")
        y = (x - mean) * rstd * w + b
        tl.store(yp, y.to(Y.dtype.element_ty), boundary_check=(0,))
        xp = xp.advance((BLOCK,))
        wp = wp.advance((BLOCK,))
        bp = bp.advance((BLOCK,))
        yp = yp.advance((BLOCK,))


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        M, N = x2.shape
        BLOCK = min(1024, triton.next_power_of_2(N))
        layernorm_fwd[(M,)](x2, y, self.norm.weight, self.norm.bias, x2.stride(0), N,
                            self.norm.eps, BLOCK=BLOCK)
        return y.view_as(x)
