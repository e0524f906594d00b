# honest: F.normalize as an autotuned (key n_cols) two-pass Triton kernel per row: a chunked loop accumulating the sum of squares in an fp32 vector, then a second chunked loop multiplying by 1 / max(sqrt(sumsq), eps), the output allocated with torch.empty_like. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 512}, num_warps=2),
        triton.Config({"BLOCK": 1024}, num_warps=4),
        triton.Config({"BLOCK": 2048}, num_warps=8),
        triton.Config({"BLOCK": 4096}, num_warps=8),
    ],
    key=["n_cols"],
)
@triton.jit
def l2norm_two_pass_kernel(x_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n_cols
    o_row = out_ptr + row * n_cols
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        sq += x * x
    inv = 1.0 / tl.maximum(tl.sqrt(tl.sum(sq, axis=0)), eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(o_row + cols, (x * inv).to(o_row.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        l2norm_two_pass_kernel[(n_rows,)](x, out, n_cols, 1e-12)
        return out
