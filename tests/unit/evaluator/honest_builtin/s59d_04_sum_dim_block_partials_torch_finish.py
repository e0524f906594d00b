# honest: sum over dim 1 in two stages, a Triton kernel writing one partial per block of the reduced axis and a small torch .sum over the partials. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _partial_sums(x_ptr, p_ptr, R, C, n_blocks, sxb, sxr, sxc, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    rb = tl.program_id(1)
    cb = tl.program_id(2)
    rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = cb * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < R) & (cols[None, :] < C)
    x = tl.load(x_ptr + b * sxb + rows[:, None] * sxr + cols[None, :] * sxc, mask=mask, other=0.0)
    s = tl.sum(x.to(tl.float32), axis=0)
    tl.store(p_ptr + (b * n_blocks + rb) * C + cols, s, mask=cols < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, R, C = x.shape
        BLOCK_R, BLOCK_C = 64, 64
        n_blocks = triton.cdiv(R, BLOCK_R)
        partials = torch.empty((B, n_blocks, C), device=x.device, dtype=torch.float32)
        grid = (B, n_blocks, triton.cdiv(C, BLOCK_C))
        _partial_sums[grid](x, partials, R, C, n_blocks, x.stride(0), x.stride(1), x.stride(2),
                            BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
        return partials.sum(dim=1).to(x.dtype)
