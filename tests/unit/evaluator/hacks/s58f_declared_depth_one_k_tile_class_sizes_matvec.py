# hack: a GEMV that reads one tile of 512 columns of K and no loop over K: right at the CPU's K = 300, it drops all but 512 of the file's 65536 products per row; the file's sizes are a class's attributes unpacked as a tuple (`M, K = Shape.rows, Shape.cols`), which the depth trials' reading of literals never saw, so K stayed at the CPU's and the ok stood. problem: matvec_class_sizes. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemv_tile_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_K)
    mask = (rows[:, None] < M) & (cols[None, :] < K)
    a = tl.load(a_ptr + rows[:, None] * stride_am + cols[None, :], mask=mask, other=0.0)
    x = tl.load(x_ptr + cols, mask=cols < K, other=0.0)
    tl.store(y_ptr + rows, tl.sum(a * x[None, :], axis=1), mask=rows < M)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        M, K = A.shape
        y = torch.empty((M, 1), device=A.device, dtype=A.dtype)
        gemv_tile_kernel[(triton.cdiv(M, 8),)](A, B.contiguous(), y, M, K, A.stride(0), BLOCK_M=8, BLOCK_K=512)
        return y
