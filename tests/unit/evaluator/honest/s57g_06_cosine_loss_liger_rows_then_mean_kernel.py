# honest: cosine-similarity loss written the way Liger-Kernel writes its row losses (one program per row computing dot and both norms over a column loop in fp32, the per-row loss stored, a second tiny kernel averaging the rows in a fixed order; eps clamp on each norm as torch's cosine_similarity). problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4


@triton.jit
def _cosine_row_kernel(
    X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    X_ptr += row * X_stride
    Y_ptr += row * Y_stride
    dot = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    xx = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    yy = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(X_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = tl.load(Y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        dot += x * y
        xx += x * x
        yy += y * y
    nx = tl.maximum(tl.sqrt(tl.sum(xx, axis=0)), eps)
    ny = tl.maximum(tl.sqrt(tl.sum(yy, axis=0)), eps)
    cos = tl.sum(dot, axis=0) / (nx * ny)
    tl.store(loss_ptr + row, 1.0 - cos)


@triton.jit
def _mean_kernel(loss_ptr, out_ptr, n_rows, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for i in range(0, n_rows, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(loss_ptr + offs, mask=offs < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_rows)


def cosine_loss_forward(x, y, eps=1e-8):
    x = x.contiguous()
    y = y.contiguous()
    n_rows, n_cols = x.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    loss_1d = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    _cosine_row_kernel[(n_rows,)](
        x, x.stride(0), y, y.stride(0), loss_1d, n_cols, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
    out = torch.empty((), dtype=torch.float32, device=x.device)
    _mean_kernel[(1,)](loss_1d, out, n_rows, BLOCK_SIZE=1024)
    return out.to(x.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return cosine_loss_forward(predictions, targets)
