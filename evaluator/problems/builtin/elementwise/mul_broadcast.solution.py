import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(x_ptr, scale_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    s = tl.load(scale_ptr + row)
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask)
    tl.store(out_ptr + row * n_cols + cols, x * s, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        rows, cols = x.shape
        BLOCK = 1024
        row_scale_kernel[(rows, triton.cdiv(cols, BLOCK))](
            x, row_scale.contiguous(), out, cols, BLOCK=BLOCK)
        return out
