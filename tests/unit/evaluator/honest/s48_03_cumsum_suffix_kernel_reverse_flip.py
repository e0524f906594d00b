# honest: the file already has a suffix-sum kernel (tl.cumsum(..., reverse=True), the discounted-returns / cumsum-backward building block); the forward cumsum reuses it on the flipped row (flip, suffix sum, flip back), BLOCK_N chunks scanned from the right with a carried total, num_warps=2. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _suffix_sum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    n_chunks = tl.cdiv(n_cols, BLOCK_N)
    for i in range(0, n_chunks):
        start = (n_chunks - 1 - i) * BLOCK_N
        offs = start + tl.arange(0, BLOCK_N)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
        y = tl.cumsum(x, axis=0, reverse=True) + carry
        carry += tl.sum(x, axis=0)
        tl.store(y_ptr + row * stride + offs, y, mask=mask)


def suffix_sum(x2d):
    x2d = x2d.contiguous()
    y = torch.empty_like(x2d)
    _suffix_sum_kernel[(x2d.shape[0],)](x2d, y, x2d.shape[1], x2d.stride(0), BLOCK_N=512, num_warps=2)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xt = x.movedim(self.dim, -1)
        shape = xt.shape
        flipped = xt.reshape(-1, shape[-1]).flip(-1)
        y = suffix_sum(flipped).flip(-1)
        return y.reshape(shape).movedim(-1, self.dim)
