# honest: a row max split across column chunks on a 2-D grid (rows, chunks) that combine through tl.atomic_max on a float output pre-filled with torch.full(..., float("-inf")), masked loads with other=float("-inf"), tl.max per chunk, the chunk count from triton.cdiv, a CPU fallback branch `if not x.is_cuda: return torch.amax(...)` never taken on a GPU, .view() glue for a (batch, dim) input, torch.cuda.current_device() for the output's device. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max_split_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    vals = tl.load(x_ptr + row.to(tl.int64) * stride_row + cols, mask=mask, other=float("-inf"))
    block_max = tl.max(vals, axis=0)
    tl.atomic_max(out_ptr + row, block_max)


def row_max(x: torch.Tensor) -> torch.Tensor:
    if not x.is_cuda:  # CPU fallback for local testing
        return torch.amax(x, dim=-1)
    x2 = x.reshape(-1, x.shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    n_rows, n_cols = x2.shape
    out = torch.full((n_rows,), float("-inf"), dtype=torch.float32, device=torch.cuda.current_device())
    BLOCK_SIZE = 512
    grid = (n_rows, triton.cdiv(n_cols, BLOCK_SIZE))
    row_max_split_kernel[grid](x2, out, n_cols, x2.stride(0), BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out.view(x.shape[:-1]).to(x.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return row_max(x)
