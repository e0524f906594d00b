import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_combine(a, b):
    return a + b


@triton.jit
def sum_middle_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, stride_c,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    pid_c = tl.program_id(1)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    acc = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < R) & (cols[None, :] < C)
        ptrs = x_ptr + b * stride_b + rows[:, None] * stride_r + cols[None, :] * stride_c
        tile = tl.load(ptrs, mask=mask, other=0.0)
        acc += tl.reduce(tile, 0, _add_combine)
    tl.store(out_ptr + b * C + cols, acc, mask=cols < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3, f"only dim=1 of a 3-D tensor, got dim={self.dim}"
        B, R, C = x.shape
        out = torch.empty((B, C), device=x.device, dtype=x.dtype)
        BLOCK_C = 64
        grid = (B, triton.cdiv(C, BLOCK_C))
        sum_middle_kernel[grid](x, out, R, C, x.stride(0), x.stride(1), x.stride(2),
                                BLOCK_R=32, BLOCK_C=BLOCK_C)
        return out
