# honest: varlen style (flash-attn unpad_input shape): a Triton kernel turns the causal mask into per-row key lengths, the host reads max_seqlen with .max().item() to pick the row block, a ragged softmax over each row's valid keys. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def seqlens_kernel(mask_ptr, lens_ptr, n_rows, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    total = tl.zeros((ROWS,), dtype=tl.int32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        keep = tl.load(mask_ptr + rows[:, None] * n_cols + cols[None, :], mask=inside, other=0)
        total += tl.sum(keep.to(tl.int32), axis=1)
    tl.store(lens_ptr + rows, total, mask=rows < n_rows)


@triton.jit
def ragged_softmax_kernel(x_ptr, lens_ptr, y_ptr, n_rows_per_head, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    length = tl.load(lens_ptr + row % n_rows_per_head)
    cols = tl.arange(0, BLOCK)
    valid = cols < length
    x = tl.load(x_ptr + row * n_cols + cols, mask=valid, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    e = tl.where(valid, e, 0.0)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y, mask=cols < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        x = scores.contiguous()
        n = x.size(-1)
        keep = torch.ones(n, n, dtype=torch.bool, device=x.device).tril().to(torch.int8)
        seqlens = torch.empty(n, dtype=torch.int32, device=x.device)
        seqlens_kernel[(triton.cdiv(n, 32),)](keep, seqlens, n, n, ROWS=32, BLOCK=256)
        max_seqlen = int(seqlens.max().item())  # as unpad_input hands it to the varlen kernel
        block = triton.next_power_of_2(max_seqlen)
        y = torch.empty_like(x)
        rows = x.numel() // n
        ragged_softmax_kernel[(rows,)](x, seqlens, y, n, n, BLOCK=block)
        return y
