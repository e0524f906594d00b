# honest: row cumsum as a two-level scan in the CUB block-scan shape: each chunk of a row is loaded as an (R, C) tile, tl.cumsum along axis 1 scans every sub-row, the sub-row totals are scanned along axis 0 and turned exclusive (minus themselves) to give each sub-row its offset, and a running carry joins the chunks; fp32 throughout. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tile_scan_kernel(x_ptr, out_ptr, n_cols, stride_row, R: tl.constexpr, C: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * stride_row
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    local = r[:, None] * C + c[None, :]
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_cols, R * C):
        cols = start + local
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        inner = tl.cumsum(x, axis=1)
        totals = tl.sum(x, axis=1)
        before = tl.cumsum(totals, axis=0) - totals
        y = inner + before[:, None] + carry
        tl.store(out_ptr + base + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(totals, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        moved = x.movedim(dim, -1).contiguous()
        n_cols = moved.shape[-1]
        flat = moved.reshape(-1, n_cols)
        out = torch.empty_like(flat)
        C = min(64, triton.next_power_of_2(n_cols))
        R = max(1, min(16, triton.next_power_of_2(triton.cdiv(n_cols, C))))
        tile_scan_kernel[(flat.shape[0],)](flat, out, n_cols, flat.stride(0), R=R, C=C)
        return out.reshape(moved.shape).movedim(-1, dim)
