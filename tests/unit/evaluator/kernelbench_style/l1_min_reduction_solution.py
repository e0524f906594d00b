# An honest Triton ModelNew for l1_min_reduction.py (KernelBench level1/53_Min_reduction_over_a_dimension): a split reduction over a 3-D grid (column blocks, row slabs, batch): each program takes tl.min of 2-D tiles over a tl.static_range loop and merges into a +inf-filled output with tl.atomic_min, tl.multiple_of/tl.max_contiguous hints, a torch fallback for other dims.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def min_split_kernel(x_ptr, out_ptr, R, Q, stride_b, stride_r, ROWS_PER_PROG: tl.constexpr,
                     BLOCK_R: tl.constexpr, BLOCK_Q: tl.constexpr):
    # 3-D grid: (q blocks, r splits, batch); each program reduces a slab and merges with atomic_min
    pid_q = tl.program_id(0)
    pid_r = tl.program_id(1)
    b = tl.program_id(2)
    offs_q = pid_q * BLOCK_Q + tl.arange(0, BLOCK_Q)
    offs_q = tl.max_contiguous(tl.multiple_of(offs_q, BLOCK_Q), BLOCK_Q)
    acc = tl.full((BLOCK_Q,), float("inf"), tl.float32)
    r_start = pid_r * ROWS_PER_PROG
    for r0 in tl.static_range(0, ROWS_PER_PROG, BLOCK_R):
        offs_r = r_start + r0 + tl.arange(0, BLOCK_R)
        mask = (offs_r[:, None] < R) & (offs_q[None, :] < Q)
        tile = tl.load(x_ptr + b.to(tl.int64) * stride_b + offs_r[:, None] * stride_r + offs_q[None, :],
                       mask=mask, other=float("inf"))
        acc = tl.minimum(acc, tl.min(tile, axis=0))
    tl.atomic_min(out_ptr + b * Q + offs_q, acc, mask=offs_q < Q)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.dim % x.dim() != 1 or x.dim() != 3:
            return torch.min(x, dim=self.dim)[0]
        x = x.contiguous()
        B, R, Q = x.shape
        out = torch.full((B, Q), float("inf"), device=x.device, dtype=torch.float32)
        BLOCK_Q, BLOCK_R, ROWS = 128, 16, 64
        grid = (triton.cdiv(Q, BLOCK_Q), triton.cdiv(R, ROWS), B)
        min_split_kernel[grid](x, out, R, Q, x.stride(0), x.stride(1), ROWS_PER_PROG=ROWS,
                               BLOCK_R=BLOCK_R, BLOCK_Q=BLOCK_Q, num_warps=4)
        return out.to(x.dtype)
