# honest: KernelBench level1/91 reverse cumsum: one program per row walking its column blocks from the last to the first, each block turned round by tl.flip, tl.cumsum'd, turned back by tl.flip and offset by the fp32 suffix carry of the blocks after it (padding zeros flip to the front, where they add nothing). problem: l1_cumsum_reverse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def reverse_cumsum_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    carry = 0.0
    num_blocks = tl.cdiv(n_cols, BLOCK)
    for i in range(num_blocks):
        start = (num_blocks - 1 - i) * BLOCK
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        suffix = tl.flip(tl.cumsum(tl.flip(x, 0), axis=0), 0) + carry
        tl.store(y_row + offs, suffix.to(y_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


def reverse_cumsum(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK = min(2048, triton.next_power_of_2(n_cols))
    reverse_cumsum_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        moved = x.movedim(self.dim, -1)
        shape = moved.shape
        y = reverse_cumsum(moved.reshape(-1, shape[-1]))
        return y.reshape(shape).movedim(-1, self.dim)
