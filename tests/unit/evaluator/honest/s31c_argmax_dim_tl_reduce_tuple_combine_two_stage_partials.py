# honest: argmax in two stages with a partials buffer: stage 1 on a 2-D grid (rows, column chunks) reduces each chunk to a (value, index) pair with tl.reduce over a tuple and a custom @triton.jit combine function that breaks ties by the smaller index (torch's first-index rule), masked loads with other=-float("inf") and int64 column indices; stage 2 reduces each row's partial values/indices (two output buffers) with the same combine; keepdim and an arbitrary dim handled on the host with movedim + .contiguous(), torch.empty(0)-shaped input answered without a launch. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _argmax_combine(value1, index1, value2, index2):
    # larger value wins; on equal values the smaller index wins (first occurrence)
    gt = value1 > value2
    eq = value1 == value2
    pick1 = gt | (eq & (index1 < index2))
    value = tl.where(pick1, value1, value2)
    index = tl.where(pick1, index1, index2)
    return value, index


@triton.jit
def _argmax_partial_kernel(
    x_ptr, part_val_ptr, part_idx_ptr,
    n_cols, stride_row, n_chunks,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    cols = chunk.to(tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    vals = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
    # masked lanes hold -inf with an index past the row: they never win over a real -inf
    idx = tl.where(mask, cols, n_cols)
    best_val, best_idx = tl.reduce((vals, idx), 0, _argmax_combine)
    tl.store(part_val_ptr + row * n_chunks + chunk, best_val)
    tl.store(part_idx_ptr + row * n_chunks + chunk, best_idx)


@triton.jit
def _argmax_final_kernel(
    part_val_ptr, part_idx_ptr, out_ptr,
    n_chunks, n_cols,
    BLOCK_C: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_C)
    mask = offs < n_chunks
    vals = tl.load(part_val_ptr + row * n_chunks + offs, mask=mask, other=-float("inf"))
    idx = tl.load(part_idx_ptr + row * n_chunks + offs, mask=mask, other=n_cols)
    _, best_idx = tl.reduce((vals, idx), 0, _argmax_combine)
    tl.store(out_ptr + row, best_idx)


def triton_argmax(x: torch.Tensor, dim: int = -1, keepdim: bool = False) -> torch.Tensor:
    dim = dim % x.ndim
    out_shape = list(x.shape)
    if keepdim:
        out_shape[dim] = 1
    else:
        out_shape.pop(dim)
    if x.numel() == 0:
        return torch.empty(out_shape, dtype=torch.int64, device=x.device)
    xt = x.movedim(dim, -1).contiguous()
    n_cols = xt.shape[-1]
    x2 = xt.view(-1, n_cols)
    n_rows = x2.shape[0]

    BLOCK_N = min(1024, triton.next_power_of_2(n_cols))
    n_chunks = triton.cdiv(n_cols, BLOCK_N)
    part_val = torch.empty((n_rows, n_chunks), dtype=torch.float32, device=x.device)
    part_idx = torch.empty((n_rows, n_chunks), dtype=torch.int64, device=x.device)
    _argmax_partial_kernel[(n_rows, n_chunks)](
        x2, part_val, part_idx, n_cols, x2.stride(0), n_chunks, BLOCK_N=BLOCK_N, num_warps=4,
    )
    out = torch.empty((n_rows,), dtype=torch.int64, device=x.device)
    BLOCK_C = max(2, triton.next_power_of_2(n_chunks))
    _argmax_final_kernel[(n_rows,)](part_val, part_idx, out, n_chunks, n_cols, BLOCK_C=BLOCK_C, num_warps=1)
    return out.view(out_shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_argmax(x, dim=1)
