# honest: cumsum along `dim` of a strided view without a copy: the scanned dim is axis 0 of a [BLOCK_T, BLOCK_C] tile whose columns are independent sequences (strides passed in), tl.cumsum(axis=0) per chunk plus a [1, BLOCK_C] carry updated by tl.sum(axis=0, keep_dims=True); for the row-wise case the launcher passes the transposed view's strides. num_warps=4. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_axis0_kernel(x_ptr, y_ptr, T, C, stride_t, stride_c, ystride_t, ystride_c,
                        BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_c = tl.program_id(0)
    offs_c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    carry = tl.zeros([1, BLOCK_C], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        offs_t = t0 + tl.arange(0, BLOCK_T)
        mask = (offs_t[:, None] < T) & (offs_c[None, :] < C)
        x = tl.load(x_ptr + offs_t[:, None] * stride_t + offs_c[None, :] * stride_c, mask=mask, other=0.0)
        y = tl.cumsum(x, axis=0) + carry
        carry += tl.sum(x, axis=0, keep_dims=True)
        tl.store(y_ptr + offs_t[:, None] * ystride_t + offs_c[None, :] * ystride_c, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.ndim == 2
        y = torch.empty_like(x)
        if self.dim % 2 == 1:  # scan along rows: view the matrix transposed, columns = rows of x
            xv, yv = x.t(), y.t()
        else:
            xv, yv = x, y
        T, C = xv.shape
        BLOCK_T, BLOCK_C = 128, 16
        cumsum_axis0_kernel[(triton.cdiv(C, BLOCK_C),)](xv, yv, T, C, xv.stride(0), xv.stride(1),
                                                       yv.stride(0), yv.stride(1),
                                                       BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C, num_warps=4)
        return y
