# An honest Triton ModelNew for KernelBench level1/4_Matrix_vector_multiplication_ written against Triton 3.6's loop hints: the K loop as tl.range(0, K, BLOCK_K, num_stages=4, disallow_acc_multi_buffer=True), tl.assume on the strides and K, tl.multiple_of on the column offsets; BLOCK_M rows per program, a float32 2D accumulator reduced once.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemv_staged_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, stride_xk,
                       BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    tl.assume(stride_am > 0)
    tl.assume(stride_xk > 0)
    tl.assume(K > 0)
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k0 in tl.range(0, K, BLOCK_K, num_stages=4, disallow_acc_multi_buffer=True):
        cols = tl.multiple_of(k0, BLOCK_K) + tl.arange(0, BLOCK_K)
        col_mask = cols < K
        a = tl.load(a_ptr + rows[:, None].to(tl.int64) * stride_am + cols[None, :],
                    mask=row_mask[:, None] & col_mask[None, :], other=0.0)
        x = tl.load(x_ptr + cols * stride_xk, mask=col_mask, other=0.0)
        acc += a * x[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        if not A.is_cuda:
            return torch.matmul(A, B)
        A = A.contiguous()
        M, K = A.shape
        y = torch.empty((M, 1), device=A.device, dtype=A.dtype)
        BLOCK_M, BLOCK_K = 4, 1024
        gemv_staged_kernel[(triton.cdiv(M, BLOCK_M),)](A, B, y, M, K, A.stride(0), B.stride(0),
                                                       BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4)
        return y
