# honest: batched matmul with device-side tensor descriptors (tl.make_tensor_descriptor over each batch's 2-D slice, the scratch memory from triton.set_allocator as tutorial 09 sets it), a 3-D grid (m tiles, n tiles, batch), int64 batch offsets, fp32 tl.dot at input_precision="tf32x3" (three-pass TF32, near-fp32 accuracy). problem: matmul/bmm
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


def alloc_fn(size: int, alignment: int, stream: Optional[int]):
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(alloc_fn)


@triton.jit
def bmm_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    a_desc = tl.make_tensor_descriptor(a_ptr + batch * M * K, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr + batch * K * N, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr + batch * M * N, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    offs_am = pid_m * BLOCK_M
    offs_bn = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        # out-of-bounds parts of a descriptor block read as zero
        a = a_desc.load([offs_am, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, offs_bn])
        acc = tl.dot(a, b, acc, input_precision="tf32x3")
    c_desc.store([offs_am, offs_bn], acc)


def bmm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    B, M, K = a.shape
    _, _, N = b.shape
    # descriptors need 16-byte aligned row strides: K and N multiples of 4 for fp32
    assert K % 4 == 0 and N % 4 == 0, "row strides must be 16-byte aligned"
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), B)
    bmm_descriptor_kernel[grid](a, b, c, M, N, K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                num_warps=4, num_stages=3)
    return c


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm(a, b)
