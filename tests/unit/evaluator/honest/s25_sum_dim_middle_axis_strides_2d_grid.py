# honest: a middle-axis reduction of a 3-D tensor read through x.stride() (no permute copy), a 2-D grid (batch, blocks of the last axis), the reduced axis walked in chunks, output made with x.new_empty. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_middle_kernel(x_ptr, out_ptr, D1, D2,
                      stride_xb, stride_x1, stride_x2, stride_ob, stride_o2,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    col_mask = cols < D2
    acc = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for r0 in range(0, D1, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        ptrs = x_ptr + b * stride_xb + rows[:, None] * stride_x1 + cols[None, :] * stride_x2
        tile = tl.load(ptrs, mask=(rows[:, None] < D1) & col_mask[None, :], other=0.0)
        acc += tl.sum(tile, axis=0)
    tl.store(out_ptr + b * stride_ob + cols * stride_o2, acc, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 3 and self.dim == 1, "this kernel reduces the middle axis of a 3-D tensor"
        B, D1, D2 = x.shape
        out = x.new_empty((B, D2))
        BLOCK_R, BLOCK_C = 32, 64
        sum_middle_kernel[(B, triton.cdiv(D2, BLOCK_C))](
            x, out, D1, D2, *x.stride(), *out.stride(), BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
        return out
