# honest: F.normalize(p=2, dim=1) as one program per row in two passes: the sum of squares over column chunks with tl.range(..., loop_unroll_factor=2), the norm clamped below at eps=1e-12 as torch clamps it, then the scaled row written chunk by chunk; int64 row base, fp32 accumulation. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l2_normalize_kernel(x_ptr, out_ptr, n_cols, stride_row, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_row
    out_row = out_ptr + row * stride_row
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK, loop_unroll_factor=2):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    norm = tl.sqrt(tl.sum(acc, axis=0))
    inv = 1.0 / tl.maximum(norm, eps)
    for start in tl.range(0, n_cols, BLOCK, loop_unroll_factor=2):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, (x * inv).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2
        x = x.contiguous()
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = min(2048, triton.next_power_of_2(n_cols))
        l2_normalize_kernel[(n_rows,)](x, out, n_cols, x.stride(0), 1e-12, BLOCK=BLOCK, num_warps=4)
        return out
