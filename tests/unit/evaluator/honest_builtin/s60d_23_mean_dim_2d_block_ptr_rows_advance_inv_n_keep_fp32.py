# honest: mean over the last axis with a 2-D make_block_ptr over (BLOCK_M rows, BLOCK_N columns) advanced along the row, fp32 partial sums per row, times 1/N handed from the host, stored through a 1-D block pointer. problem: reduction/mean_dim. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, y_ptr, M, N, stride_m, inv_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    blk = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_m, 1), offsets=(pid * BLOCK_M, 0),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        acc += tl.load(blk, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        blk = tl.advance(blk, (0, BLOCK_N))
    mean = tl.sum(acc, axis=1) * inv_n
    out = tl.make_block_ptr(y_ptr, shape=(M,), strides=(1,), offsets=(pid * BLOCK_M,), block_shape=(BLOCK_M,),
                            order=(0,))
    tl.store(out, mean.to(y_ptr.dtype.element_ty), boundary_check=(0,))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty(M, device=x.device, dtype=x.dtype)
        BLOCK_M = 16
        row_mean_kernel[(triton.cdiv(M, BLOCK_M),)](x, y, M, N, x.stride(0), 1.0 / N,
                                                   BLOCK_M=BLOCK_M, BLOCK_N=256, num_warps=4)
        return y
