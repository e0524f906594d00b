# honest: fp32 matmul as split-K through host tensor descriptors with the TMA reduction store (Triton 3.x's tensor_descriptor.atomic_add, cp.reduce.async.bulk on sm_90): a 3D grid of (M tiles, N tiles, K splits), each program loads its A and B tiles with a_desc.load / b_desc.load over its K range, accumulates with a TF32 tl.dot, and adds its partial tile into C with c_desc.atomic_add; C zeroed first, triton.set_allocator unused (host descriptors). problem: matmul/matmul
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def matmul_splitk_tma_kernel(a_desc, b_desc, c_desc, K, k_per_split,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    k_start = pid_k * k_per_split
    k_end = tl.minimum(k_start + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k_start, k_end, BLOCK_K):
        a = a_desc.load([off_m, k])
        b = b_desc.load([k, off_n])
        acc = tl.dot(a, b, acc, input_precision="tf32")
    c_desc.atomic_add([off_m, off_n], acc)


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    assert a.shape[1] == b.shape[0]
    a = a.contiguous()
    b = b.contiguous()
    M, K = a.shape
    _, N = b.shape
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 32
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    split_k = max(1, min(8, 132 // max(tiles, 1), triton.cdiv(K, 4 * BLOCK_K)))
    k_per_split = triton.cdiv(triton.cdiv(K, split_k), BLOCK_K) * BLOCK_K
    split_k = triton.cdiv(K, k_per_split)
    # out-of-bounds parts of a TMA tile read as zero and are dropped on the store
    a_desc = TensorDescriptor.from_tensor(a, [BLOCK_M, BLOCK_K])
    b_desc = TensorDescriptor.from_tensor(b, [BLOCK_K, BLOCK_N])
    c_desc = TensorDescriptor.from_tensor(c, [BLOCK_M, BLOCK_N])
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), split_k)
    matmul_splitk_tma_kernel[grid](a_desc, b_desc, c_desc, K, k_per_split,
                                   BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                   num_warps=8, num_stages=3)
    return c


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return matmul(a, b)
