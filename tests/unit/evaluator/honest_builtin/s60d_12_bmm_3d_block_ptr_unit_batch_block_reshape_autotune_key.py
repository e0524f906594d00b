# honest: batched matmul with 3-D make_block_ptr over (batch, rows, cols) blocks of shape (1, BM, BK), each tile tl.reshape'd to 2-D for tl.dot and the product reshaped back to (1, BM, BN) for a 3-D block store; autotuned with key ['M', 'N', 'K'], grid lambda over META with the batch on axis 2. problem: matmul/bmm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BM": 64, "BN": 64, "BK": 32}, num_warps=4, num_stages=3),
        triton.Config({"BM": 128, "BN": 64, "BK": 32}, num_warps=4, num_stages=3),
        triton.Config({"BM": 64, "BN": 128, "BK": 32}, num_warps=4, num_stages=3),
        triton.Config({"BM": 128, "BN": 128, "BK": 32}, num_warps=8, num_stages=3),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, B, M, N, K,
               sab, sam, sak, sbb, sbk, sbn, scb, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bid = tl.program_id(2)
    a_blk = tl.make_block_ptr(a_ptr, shape=(B, M, K), strides=(sab, sam, sak), offsets=(bid, pid_m * BM, 0),
                              block_shape=(1, BM, BK), order=(2, 1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(B, K, N), strides=(sbb, sbk, sbn), offsets=(bid, 0, pid_n * BN),
                              block_shape=(1, BK, BN), order=(2, 1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.reshape(tl.load(a_blk, boundary_check=(1, 2), padding_option="zero"), (BM, BK))
        b = tl.reshape(tl.load(b_blk, boundary_check=(1, 2), padding_option="zero"), (BK, BN))
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_blk = tl.advance(a_blk, (0, 0, BK))
        b_blk = tl.advance(b_blk, (0, BK, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(B, M, N), strides=(scb, scm, scn), offsets=(bid, pid_m * BM, pid_n * BN),
                              block_shape=(1, BM, BN), order=(2, 1, 0))
    tl.store(c_blk, tl.reshape(acc, (1, BM, BN)).to(c_ptr.dtype.element_ty), boundary_check=(1, 2))


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        B, M, K = a.shape
        _, _, N = b.shape
        c = torch.empty((B, M, N), device=a.device, dtype=a.dtype)
        grid = lambda META: (triton.cdiv(M, META["BM"]), triton.cdiv(N, META["BN"]), B)
        bmm_kernel[grid](a, b, c, B, M, N, K, *a.stride(), *b.stride(), *c.stride())
        return c
