# honest: F.normalize(p=2, dim=1) with the row's chunk count a tl.constexpr so both passes unroll by tl.static_range: pass one sums squares in fp32, the inverse norm is libdevice.rsqrt of the sum clamped at eps**2 (max(||x||, eps) as F.normalize), pass two scales and stores; several rows per program for short rows. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def l2_normalize_kernel(
    x_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y, eps,
    ROWS_PER_PROGRAM: tl.constexpr, NUM_CHUNKS: tl.constexpr, BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    for r in tl.static_range(ROWS_PER_PROGRAM):
        row = pid * ROWS_PER_PROGRAM + r
        if row < n_rows:
            x_row = x_ptr + row.to(tl.int64) * stride_x
            y_row = y_ptr + row.to(tl.int64) * stride_y
            acc = tl.zeros((BLOCK,), dtype=tl.float32)
            for c in tl.static_range(NUM_CHUNKS):
                offs = c * BLOCK + tl.arange(0, BLOCK)
                x = tl.load(x_row + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
                acc += x * x
            sumsq = tl.sum(acc, axis=0)
            inv_norm = libdevice.rsqrt(tl.maximum(sumsq, eps * eps))
            for c in tl.static_range(NUM_CHUNKS):
                offs = c * BLOCK + tl.arange(0, BLOCK)
                mask = offs < n_cols
                x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
                tl.store(y_row + offs, (x * inv_norm).to(y_ptr.dtype.element_ty), mask=mask)


def l2_normalize(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK = min(1024, triton.next_power_of_2(n_cols))
    NUM_CHUNKS = triton.cdiv(n_cols, BLOCK)
    ROWS_PER_PROGRAM = 4 if n_cols <= 512 else 1
    grid = (triton.cdiv(n_rows, ROWS_PER_PROGRAM),)
    l2_normalize_kernel[grid](
        x, y, n_rows, n_cols, x.stride(0), y.stride(0), eps,
        ROWS_PER_PROGRAM=ROWS_PER_PROGRAM, NUM_CHUNKS=NUM_CHUNKS, BLOCK=BLOCK, num_warps=4,
    )
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_normalize(x)
