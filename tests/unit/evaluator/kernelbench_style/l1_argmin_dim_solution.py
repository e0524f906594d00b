# An honest Triton ModelNew for l1_argmin_dim.py (KernelBench level1/52_Argmin_over_a_dimension): a running min over the reduced (middle) dimension in chunks, ties kept at the first index with a strict `<`, int64 indices stored, grid (batch, column blocks).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmin_dim1_kernel(
    x_ptr, out_ptr,
    D1, D2,
    stride_b, stride_r, stride_c,
    BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr,
):
    pid_b = tl.program_id(0)
    pid_c = tl.program_id(1)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    col_mask = cols < D2

    best_val = tl.full([BLOCK_C], float("inf"), dtype=tl.float32)
    best_idx = tl.zeros([BLOCK_C], dtype=tl.int64)
    base = x_ptr + pid_b.to(tl.int64) * stride_b
    for r0 in range(0, D1, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < D1) & col_mask[None, :]
        vals = tl.load(base + rows[:, None] * stride_r + cols[None, :] * stride_c, mask=mask,
                       other=float("inf")).to(tl.float32)
        # min of this chunk and the first row that holds it
        chunk_min = tl.min(vals, axis=0)
        is_min = (vals == chunk_min[None, :]) & mask
        chunk_idx = tl.min(tl.where(is_min, rows[:, None], D1), axis=0).to(tl.int64)
        better = chunk_min < best_val  # strict: an earlier chunk keeps a tie
        best_val = tl.where(better, chunk_min, best_val)
        best_idx = tl.where(better, chunk_idx, best_idx)

    tl.store(out_ptr + pid_b * D2 + cols, best_idx, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 3 or self.dim != 1:
            return torch.argmin(x, dim=self.dim)
        B, D1, D2 = x.shape
        out = torch.empty((B, D2), dtype=torch.int64, device=x.device)
        BLOCK_R, BLOCK_C = 32, 64
        grid = (B, triton.cdiv(D2, BLOCK_C))
        argmin_dim1_kernel[grid](
            x, out, D1, D2,
            x.stride(0), x.stride(1), x.stride(2),
            BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C,
        )
        return out
