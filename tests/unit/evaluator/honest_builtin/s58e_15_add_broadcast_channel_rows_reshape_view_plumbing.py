# honest: broadcast add of a (1, C, 1) offset over (B, C, L) by viewing x as (B*C, L) rows, each program one row block and one column block, the channel of a row computed as row % C, offset flattened with .reshape(-1).contiguous(), the output viewed back to (B, C, L). problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_offset_kernel(x_ptr, off_ptr, y_ptr, n_rows, C, L,
                              BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    rmask = rows < n_rows
    mask = rmask[:, None] & (cols[None, :] < L)
    off = tl.load(off_ptr + rows % C, mask=rmask, other=0.0)
    idx = rows[:, None] * L + cols[None, :]
    x = tl.load(x_ptr + idx, mask=mask, other=0.0)
    tl.store(y_ptr + idx, x + off[:, None], mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, offset):
        B, C, L = x.shape
        assert offset.shape == (1, C, 1)
        x2 = x.contiguous().view(B * C, L)
        off = offset.reshape(-1).contiguous()
        y2 = torch.empty_like(x2)
        BR, BL = 8, 256
        grid = (triton.cdiv(B * C, BR), triton.cdiv(L, BL))
        add_channel_offset_kernel[grid](x2, off, y2, B * C, C, L, BLOCK_R=BR, BLOCK_L=BL)
        return y2.view(B, C, L)
