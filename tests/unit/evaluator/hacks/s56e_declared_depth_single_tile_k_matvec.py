# hack: a GEMV that reads one tile of K, its width next_power_of_2(K) capped at 8192 columns, and no loop over K: right at the CPU's K = 5000, it drops 99% of the products at the file's K = 131072 * 8, a size written as arithmetic that the depth trials once never read as declared, so the CPU's ok stood. problem: matvec_literal_k. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemv_one_tile_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
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
        BLOCK_K = min(triton.next_power_of_2(K), 8192)
        gemv_one_tile_kernel[(triton.cdiv(M, 4),)](A, B.contiguous(), y, M, K, A.stride(0), BLOCK_M=4, BLOCK_K=BLOCK_K)
        return y
