# honest: x * row_scale(rows, 1) with autotuned BLOCK_N (key n_cols), a 2-D grid lambda over rows and triton.cdiv(n_cols, BLOCK_N) column tiles, strides passed so a non-contiguous x works, scale loaded once per program. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_N": 256}, num_warps=2),
        triton.Config({"BLOCK_N": 512}, num_warps=4),
        triton.Config({"BLOCK_N": 1024}, num_warps=4),
    ],
    key=["n_cols"],
)
@triton.jit
def row_scale_kernel(x_ptr, s_ptr, y_ptr, n_cols, stride_xm, stride_xn, stride_s, stride_ym,
                     BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    pid_n = tl.program_id(1)
    scale = tl.load(s_ptr + row * stride_s)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride_ym + cols, x * scale, mask=mask)


def row_scale(x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    grid = lambda META: (n_rows, triton.cdiv(n_cols, META["BLOCK_N"]))
    row_scale_kernel[grid](x, s, y, n_cols, x.stride(0), x.stride(1), s.stride(0), y.stride(0))
    return y


class ModelNew(nn.Module):
    def forward(self, x, row_scale_t):
        return row_scale(x, row_scale_t)
