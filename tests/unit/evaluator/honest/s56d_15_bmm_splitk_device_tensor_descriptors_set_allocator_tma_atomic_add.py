# honest: batched matmul as split-K through device-side tensor descriptors (tl.make_tensor_descriptor, Triton 3.4+, with triton.set_allocator handing the kernel its tensormap scratch) and the descriptor reduction store: each (batch, M tile, N tile, K split) program builds 3D-flattened 2D descriptors for its batch's A, B and C, accumulates its K range with tl.dot in TF32, and adds the partial tile into the zeroed C with c_desc.atomic_add. problem: matmul/bmm
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _alloc_fn(size: int, alignment: int, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


@triton.jit
def bmm_splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, k_per_split,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_b = tl.program_id(1)
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_k = pid % SPLIT_K
    pid_mn = pid // SPLIT_K
    pid_m = pid_mn // num_pid_n
    pid_n = pid_mn % num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr + pid_b.to(tl.int64) * M * K, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr + pid_b.to(tl.int64) * K * N, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr + pid_b.to(tl.int64) * M * N, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    k_start = pid_k * k_per_split
    k_end = tl.minimum(k_start + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k_start, k_end, BLOCK_K):
        acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([k, off_n]), acc, input_precision="tf32")
    c_desc.atomic_add([off_m, off_n], acc)


def bmm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    a = a.contiguous()
    b = b.contiguous()
    B, M, K = a.shape
    N = b.shape[2]
    c = torch.zeros((B, M, N), device=a.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    SPLIT_K = 2 if K >= 4 * BLOCK_K else 1
    k_per_split = triton.cdiv(triton.cdiv(K, SPLIT_K), BLOCK_K) * BLOCK_K
    triton.set_allocator(_alloc_fn)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N) * SPLIT_K, B)
    bmm_splitk_kernel[grid](a, b, c, M, N, K, k_per_split, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                            BLOCK_K=BLOCK_K, SPLIT_K=SPLIT_K, num_warps=4, num_stages=3)
    return c


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm(a, b)
