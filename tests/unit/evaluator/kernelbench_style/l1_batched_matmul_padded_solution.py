# An honest Triton ModelNew for l1_batched_matmul_padded.py (KernelBench level1/3_Batched_matrix_multiplication): a plain tl.dot GEMM (default precision) into an output padded to a multiple of BLOCK_N columns so every store is full-width, returned as the strided slice C[:, :, :N]; a data_ptr() % 16 alignment assert and torch.cuda.synchronize() in forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bmm_padded_kernel(a_ptr, b_ptr, c_ptr, M, N, K, Np,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bz = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + bz * M * K
    b_base = b_ptr + bz * K * N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_base + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_base + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    # the output is padded to a multiple of BLOCK_N columns: every store is full-width
    tl.store(c_ptr + bz * M * Np + rm[:, None] * Np + rn[None, :], acc, mask=rm[:, None] < M)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        assert A.data_ptr() % 16 == 0 and B.data_ptr() % 16 == 0
        batch, M, K = A.shape
        N = B.shape[2]
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
        Np = triton.cdiv(N, BLOCK_N) * BLOCK_N
        C = torch.empty((batch, M, Np), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(M, BLOCK_M), Np // BLOCK_N, batch)
        bmm_padded_kernel[grid](A, B, C, M, N, K, Np, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        torch.cuda.synchronize()
        return C[:, :, :N]
