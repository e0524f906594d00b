# honest: inclusive cumsum along dim 1, one program per row walking column blocks in order: tl.cumsum on each block plus a running scalar carry (the block's tl.sum added after it), fp32 throughout; an autograd.Function whose backward (the reversed cumsum, via flip) is marked @once_differentiable. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.autograd.function import once_differentiable


@triton.jit
def cumsum_rows_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    carry = tl.zeros([1], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


def _cumsum_lastdim(x: torch.Tensor) -> torch.Tensor:
    x2 = x.reshape(-1, x.shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    y = torch.empty_like(x2)
    M, N = x2.shape
    BLOCK = min(1024, triton.next_power_of_2(N))
    cumsum_rows_kernel[(M,)](x2, y, N, x2.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=4)
    return y.view(x.shape)


class CumsumFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        return _cumsum_lastdim(x)

    @staticmethod
    @once_differentiable
    def backward(ctx, dy: torch.Tensor) -> torch.Tensor:
        # d/dx_j sum_{i >= j} dy_i: a cumsum of the reversed gradient, reversed back
        return _cumsum_lastdim(dy.flip(-1)).flip(-1)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim if self.dim >= 0 else self.dim + x.dim()
        if dim != x.dim() - 1:
            x = x.movedim(dim, -1)
            return CumsumFunction.apply(x).movedim(-1, dim)
        return CumsumFunction.apply(x)
