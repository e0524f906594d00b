# honest: bf16 sigmoid over a 2D view with explicit row strides (x.reshape(-1, last dim), 2D grid of row x column-block programs, masks with other=0), math upcast to fp32 as 1/(1+exp(-x)) and cast back to bf16 on the store, output torch.empty with the input's dtype. problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_2d_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(y_ptr + row * stride_y + cols, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        n_rows, n_cols = x2.shape
        y = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
        BLOCK_N = min(4096, triton.next_power_of_2(n_cols))
        grid = (n_rows, triton.cdiv(n_cols, BLOCK_N))
        sigmoid_2d_kernel[grid](x2, y, n_cols, x2.stride(0), y.stride(0), BLOCK_N=BLOCK_N)
        return y.view(x.shape)
