import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_middle_kernel(x_ptr, out_ptr, n_reduce, n_inner, BLOCK_R: tl.constexpr,
                      BLOCK_N: tl.constexpr):
    batch = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < n_inner
    base = x_ptr + batch * n_reduce * n_inner
    acc = tl.zeros((BLOCK_R, BLOCK_N), dtype=tl.float32)
    for r0 in range(0, n_reduce, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < n_reduce) & col_mask[None, :]
        acc += tl.load(base + rows[:, None] * n_inner + cols[None, :], mask=mask, other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + batch * n_inner + cols, total, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # view x as (outer, reduce, inner) around the reduced dimension
        x = x.contiguous()
        dim = self.dim % x.dim()
        outer = x.shape[:dim].numel()
        n_reduce = x.shape[dim]
        inner = x.shape[dim + 1:].numel()
        out = torch.empty(x.shape[:dim] + x.shape[dim + 1:], device=x.device, dtype=x.dtype)
        BLOCK_R, BLOCK_N = 32, 32
        sum_middle_kernel[(outer, triton.cdiv(inner, BLOCK_N))](
            x, out, n_reduce, inner, BLOCK_R=BLOCK_R, BLOCK_N=BLOCK_N)
        return out
