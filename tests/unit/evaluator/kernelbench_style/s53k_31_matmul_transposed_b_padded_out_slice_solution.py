# An honest Triton ModelNew for KernelBench level1/17_Matmul_with_transposed_B (problem s53k_01_matmul_transposed_b): the output allocated with N padded up to a multiple of 64 (16-byte aligned rows, whole tiles stored unmasked along N) and returned as the non-contiguous slice c[:, :N]; a TF32 tl.dot.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_bt_padded_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        bt = tl.load(b_ptr + rn[None, :] * stride_bn + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc = tl.dot(a, bt, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=rm[:, None] < M)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        M, K = A.shape
        N = B.shape[0]
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
        N_pad = triton.cdiv(N, BLOCK_N) * BLOCK_N
        c = torch.empty((M, N_pad), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(M, BLOCK_M), N_pad // BLOCK_N)
        matmul_bt_padded_kernel[grid](A, B, c, M, N, K, A.stride(0), B.stride(0), c.stride(0),
                                      BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return c[:, :N]
