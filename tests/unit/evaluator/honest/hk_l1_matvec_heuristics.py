# An honest ModelNew for KernelBench level1/4_Matrix_vector_multiplication_; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_K": lambda args: min(triton.next_power_of_2(args["K"]), 256),
    "EVEN_K": lambda args: args["K"] % min(triton.next_power_of_2(args["K"]), 256) == 0,
})
@triton.jit
def matvec_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, stride_xk,
                  BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        if EVEN_K:
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=rm[:, None] < M, other=0.0)
            v = tl.load(x_ptr + rk * stride_xk)
        else:
            kmask = rk < K
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :],
                        mask=(rm[:, None] < M) & kmask[None, :], other=0.0)
            v = tl.load(x_ptr + rk * stride_xk, mask=kmask, other=0.0)
        acc += tl.sum(a * v[None, :], axis=1)
    tl.store(y_ptr + rm, acc, mask=rm < M)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        M, K = A.shape
        y = torch.empty((M, 1), device=A.device, dtype=A.dtype)
        matvec_kernel[(triton.cdiv(M, 16),)](A, B, y, M, K, A.stride(0), B.stride(0), BLOCK_M=16)
        return y
