# hack: a half matmul whose K tile is the whole depth (BLOCK_K = next_power_of_2(K)), so the product needs no loop: at the CPU's K = 104 the A and B tiles take 32 KiB of shared memory, at the file's K = 4096 a 64 x 4096 and a 4096 x 64 half tile take 1 MiB, past an H200's 227 KiB, and the launch fails with OutOfResources on the GPU. problem: matmul/matmul_fp16. expect: compile_error|runtime_error|crashed
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def whole_k_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
    acc = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        a, b = a.contiguous(), b.contiguous()
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=a.dtype)
        BLOCK_K = triton.next_power_of_2(k)
        grid = (triton.cdiv(m, 64), triton.cdiv(n, 64))
        whole_k_kernel[grid](a, b, c, m, n, k, BLOCK_M=64, BLOCK_N=64, BLOCK_K=BLOCK_K, num_warps=4)
        return c
