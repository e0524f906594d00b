# honest: smooth L1 in unsloth's chunked style (rows split into chunks of at most 65536 columns launched as a 2-D grid (row, chunk), one fp32 partial per (row, chunk), BETA as a tl.constexpr with the beta == 0 branch as plain L1, a final kernel summing partials and scaling by 1/numel). problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


@triton.jit
def _chunked_smooth_l1_forward(
    pred_ptr, target_ptr, partial_ptr, n_cols, pred_row_stride, target_row_stride, n_chunks,
    BETA: tl.constexpr, BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    chunk_idx = tl.program_id(1)
    pred_ptr += row_idx.to(tl.int64) * pred_row_stride
    target_ptr += row_idx.to(tl.int64) * target_row_stride
    col_offsets = chunk_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    x = tl.load(pred_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(target_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    d = tl.abs(x - y)
    if BETA == 0.0:
        loss = d
    else:
        loss = tl.where(d < BETA, 0.5 * d * d / BETA, d - 0.5 * BETA)
    loss = tl.where(mask, loss, 0.0)
    tl.store(partial_ptr + row_idx * n_chunks + chunk_idx, tl.sum(loss, axis=0))


@triton.jit
def _sum_scale(partial_ptr, out_ptr, n, scale, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(partial_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


def fast_smooth_l1_loss(pred, target, beta=1.0):
    shape = pred.shape
    pred = pred.reshape(-1, shape[-1])
    target = target.reshape(-1, shape[-1])
    n_rows, n_cols = pred.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols), 4096)
    n_chunks = triton.cdiv(n_cols, BLOCK_SIZE)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    partials = torch.empty(n_rows * n_chunks, dtype=torch.float32, device=pred.device)
    _chunked_smooth_l1_forward[(n_rows, n_chunks)](
        pred, target, partials, n_cols, pred.stride(0), target.stride(0), n_chunks,
        BETA=beta, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
    out = torch.empty((), dtype=torch.float32, device=pred.device)
    _sum_scale[(1,)](partials, out, n_rows * n_chunks, 1.0 / (n_rows * n_cols), BLOCK_SIZE=1024)
    return out.to(pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return fast_smooth_l1_loss(predictions.contiguous(), targets.contiguous(), beta=1.0)
