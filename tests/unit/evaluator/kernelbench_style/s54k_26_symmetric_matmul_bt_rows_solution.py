# An honest Triton ModelNew for KernelBench level1/13_Matmul_for_symmetric_matrices that uses the problem's contract: B is symmetric, so B[k, n] == B[n, k] and the kernel reads B's tile row-major through B's own strides swapped (both operands then walk K along contiguous memory, a trick LLM answers take from the problem statement); autotune, TF32 tl.dot, masked edges.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, num_stages=3, num_warps=8),
    ],
    key=["N"],
)
@triton.jit
def symm_matmul_rows_kernel(a_ptr, b_ptr, c_ptr, N, stride_a0, stride_a1, stride_b0, stride_b1, stride_c0, stride_c1,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, N, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * stride_a0 + offs_k[None, :] * stride_a1,
                    mask=(offs_m[:, None] < N) & (offs_k[None, :] < N), other=0.0)
        # B symmetric: B[k, n] = B[n, k], read as rows n of B (contiguous along k)
        b = tl.load(b_ptr + offs_n[None, :] * stride_b0 + offs_k[:, None] * stride_b1,
                    mask=(offs_k[:, None] < N) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * stride_c0 + offs_n[None, :] * stride_c1, acc,
             mask=(offs_m[:, None] < N) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        grid = lambda META: (triton.cdiv(N, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        symm_matmul_rows_kernel[grid](A, B, C, N, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                                      C.stride(0), C.stride(1))
        return C
