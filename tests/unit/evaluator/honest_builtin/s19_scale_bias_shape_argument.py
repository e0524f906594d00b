# honest: x.shape (a torch.Size) passed as a tuple launch argument. problem: elementwise/scale_bias
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_bias_kernel(x_ptr, w_ptr, b_ptr, y_ptr, shape, strides, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    M = shape[0]
    N = shape[1]
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * strides[0] + rn[None, :] * strides[1]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + rn, mask=rn < N, other=0.0)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    tl.store(y_ptr + offs, x * w[None, :] + b[None, :], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        grid = (triton.cdiv(M, 16), triton.cdiv(N, 128))
        scale_bias_kernel[grid](x, self.weight, self.bias, y, x.shape, x.stride(), BLOCK_M=16, BLOCK_N=128)
        return y
