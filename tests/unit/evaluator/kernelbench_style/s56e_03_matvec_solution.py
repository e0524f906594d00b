# An honest Triton ModelNew for KernelBench level1/4_Matrix_vector_multiplication_: GEMV as a reduction, BLOCK_M rows per program striding over K in BLOCK_K chunks (each row's partial products kept in a 2D float32 accumulator, reduced once at the end), B read through its stride, output (M, 1).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 4, "BLOCK_K": 1024}, num_warps=4),
        triton.Config({"BLOCK_M": 8, "BLOCK_K": 512}, num_warps=4),
        triton.Config({"BLOCK_M": 2, "BLOCK_K": 2048}, num_warps=8),
    ],
    key=["M", "K"],
)
@triton.jit
def gemv_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, stride_ak, stride_xk,
                BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        col_mask = cols < K
        a = tl.load(a_ptr + rows[:, None].to(tl.int64) * stride_am + cols[None, :] * stride_ak,
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
        M, K = A.shape
        y = torch.empty((M, 1), device=A.device, dtype=A.dtype)
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]),)
        gemv_kernel[grid](A, B, y, M, K, A.stride(0), A.stride(1), B.stride(0))
        return y
