# honest: split-row reduction with tl.atomic_add into a zeroed buffer, @triton.autotune(reset_to_zero=[...]) so tuning runs start from zero, 2-D grid. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_N": 512}, num_warps=4),
        triton.Config({"BLOCK_N": 1024}, num_warps=8),
    ],
    key=["n_cols"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def row_mean_atomic_kernel(x_ptr, out_ptr, n_cols, stride_row, inv_n, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr + row, tl.sum(x, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2
        if not x.is_contiguous():
            x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.zeros(n_rows, device=x.device, dtype=torch.float32)
        grid = lambda META: (n_rows, triton.cdiv(n_cols, META["BLOCK_N"]))  # noqa: E731
        row_mean_atomic_kernel[grid](x, out, n_cols, x.stride(0), 1.0 / n_cols)
        return out.to(x.dtype)
