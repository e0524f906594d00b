# honest: x + offset with offset of shape (1, C, 1), x viewed as (B*C, L) rows: a 2-D grid of (BLOCK_R, BLOCK_L) tiles read and written through tl.make_block_ptr with boundary_check=(0, 1), each tile's per-row offset loaded once from offset[row % C] and broadcast along the length. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_channel_offset(x_ptr, off_ptr, y_ptr, R, L, C, stride_xr, stride_yr,
                        BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_l = tl.program_id(1)
    x_bp = tl.make_block_ptr(base=x_ptr, shape=(R, L), strides=(stride_xr, 1),
                             offsets=(pid_r * BLOCK_R, pid_l * BLOCK_L),
                             block_shape=(BLOCK_R, BLOCK_L), order=(1, 0))
    y_bp = tl.make_block_ptr(base=y_ptr, shape=(R, L), strides=(stride_yr, 1),
                             offsets=(pid_r * BLOCK_R, pid_l * BLOCK_L),
                             block_shape=(BLOCK_R, BLOCK_L), order=(1, 0))
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    off = tl.load(off_ptr + rows % C, mask=rows < R, other=0.0)
    x = tl.load(x_bp, boundary_check=(0, 1))
    tl.store(y_bp, (x + off[:, None]).to(y_ptr.dtype.element_ty), boundary_check=(0, 1))


def add_channel_offset(x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    B, C, L = x.shape
    x2 = x.contiguous().view(B * C, L)
    off = offset.reshape(C).contiguous()
    y = torch.empty_like(x2)
    BLOCK_R, BLOCK_L = 32, 1024
    grid = (triton.cdiv(B * C, BLOCK_R), triton.cdiv(L, BLOCK_L))
    _add_channel_offset[grid](x2, off, y, B * C, L, C, x2.stride(0), y.stride(0),
                              BLOCK_R=BLOCK_R, BLOCK_L=BLOCK_L, num_warps=8)
    return y.view(B, C, L)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return add_channel_offset(x, offset)
