# honest: row softmax through 1-D make_block_ptr loads padded with zeros and masked to -inf by tl.where on the column index, online max/sum over tl.advance'd blocks, then a second sweep storing through a block pointer with boundary_check. problem: softmax/softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_fwd(x_ptr, y_ptr, n_cols, stride_xm, stride_ym, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_blk = tl.make_block_ptr(x_ptr + row * stride_xm, shape=(n_cols,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    m_i = -float("inf")
    l_i = 0.0
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_blk, boundary_check=(0,), padding_option="zero")
        x = tl.where(cols < n_cols, x, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(x, axis=0))
        l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m_i = m_new
        x_blk = tl.advance(x_blk, (BLOCK_N,))
    inv = 1.0 / l_i
    x_blk = tl.make_block_ptr(x_ptr + row * stride_xm, shape=(n_cols,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    y_blk = tl.make_block_ptr(y_ptr + row * stride_ym, shape=(n_cols,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    for _start in range(0, n_cols, BLOCK_N):
        x = tl.load(x_blk, boundary_check=(0,), padding_option="zero")
        tl.store(y_blk, tl.exp(x - m_i) * inv, boundary_check=(0,))
        x_blk = tl.advance(x_blk, (BLOCK_N,))
        y_blk = tl.advance(y_blk, (BLOCK_N,))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and x.stride(1) == 1
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        BLOCK_N = min(2048, triton.next_power_of_2(n_cols))
        softmax_fwd[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), BLOCK_N=BLOCK_N,
                               num_warps=8 if BLOCK_N >= 2048 else 4)
        return y
