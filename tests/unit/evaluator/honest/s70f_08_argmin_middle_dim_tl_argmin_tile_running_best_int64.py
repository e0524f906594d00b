# honest: KernelBench level1/52 argmin over the middle dimension of (B, D1, D2): a 2-D grid of (batch, column block) programs walking D1 in (BLOCK_D1, BLOCK_D2) tiles, tl.argmin and tl.min along axis 0 of each tile (masked rows read +inf), a strict `<` merge into the running best so the first index wins ties as torch's does, int64 indices stored. problem: l1_argmin_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmin_dim1_kernel(
    x_ptr, out_ptr, D1, D2,
    stride_b, stride_d1, stride_d2, stride_ob, stride_od2,
    BLOCK_D1: tl.constexpr, BLOCK_D2: tl.constexpr,
):
    pid_b = tl.program_id(0).to(tl.int64)
    pid_n = tl.program_id(1)
    cols = pid_n * BLOCK_D2 + tl.arange(0, BLOCK_D2)
    col_mask = cols < D2
    base = x_ptr + pid_b * stride_b
    best_val = tl.full((BLOCK_D2,), float("inf"), tl.float32)
    best_idx = tl.zeros((BLOCK_D2,), dtype=tl.int64)
    for start in range(0, D1, BLOCK_D1):
        rows = start + tl.arange(0, BLOCK_D1)
        mask = (rows[:, None] < D1) & col_mask[None, :]
        tile = tl.load(base + rows[:, None] * stride_d1 + cols[None, :] * stride_d2,
                       mask=mask, other=float("inf")).to(tl.float32)
        tile_min = tl.min(tile, axis=0)
        tile_idx = tl.argmin(tile, axis=0).to(tl.int64) + start
        better = tile_min < best_val
        best_val = tl.where(better, tile_min, best_val)
        best_idx = tl.where(better, tile_idx, best_idx)
    tl.store(out_ptr + pid_b * stride_ob + cols * stride_od2, best_idx, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 3 or self.dim != 1:
            return torch.argmin(x, dim=self.dim)
        B, D1, D2 = x.shape
        out = torch.empty((B, D2), dtype=torch.int64, device=x.device)
        BLOCK_D1 = 64
        BLOCK_D2 = min(128, triton.next_power_of_2(D2))
        grid = (B, triton.cdiv(D2, BLOCK_D2))
        argmin_dim1_kernel[grid](
            x, out, D1, D2, x.stride(0), x.stride(1), x.stride(2), out.stride(0), out.stride(1),
            BLOCK_D1=BLOCK_D1, BLOCK_D2=BLOCK_D2,
        )
        return out
