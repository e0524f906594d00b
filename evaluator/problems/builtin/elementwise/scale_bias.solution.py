import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_bias_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(out_ptr + row * n_cols + cols, x * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        rows, cols = x.shape
        BLOCK = 1024
        scale_bias_kernel[(rows, triton.cdiv(cols, BLOCK))](
            x, self.weight, self.bias, out, cols, BLOCK=BLOCK)
        return out
