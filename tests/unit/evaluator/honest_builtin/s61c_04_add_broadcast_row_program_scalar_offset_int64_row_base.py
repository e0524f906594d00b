# honest: x + offset(1, C, 1) with a 2-D grid (batch*channel rows, column blocks): each program loads its channel's offset once as a scalar, row base computed in int64, .view glue back to (B, C, L). problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_kernel(x_ptr, off_ptr, out_ptr, C, L, BLOCK_L: tl.constexpr):
    row = tl.program_id(0)
    pid_l = tl.program_id(1)
    c = row % C
    bias = tl.load(off_ptr + c)
    row_base = row.to(tl.int64) * L
    cols = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = cols < L
    x = tl.load(x_ptr + row_base + cols, mask=mask)
    tl.store(out_ptr + row_base + cols, x + bias, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        B, C, L = x.shape
        x = x.contiguous()
        off = offset.reshape(-1).contiguous()
        out = torch.empty_like(x)
        BLOCK_L = 1024
        grid = (B * C, triton.cdiv(L, BLOCK_L))
        add_channel_kernel[grid](x.view(B * C, L), off, out.view(B * C, L), C, L, BLOCK_L=BLOCK_L)
        return out
