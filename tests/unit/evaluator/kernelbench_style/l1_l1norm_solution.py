# An honest Triton ModelNew for l1_l1norm.py (KernelBench level1/38_L1Norm_): one program per row looping twice over column blocks (tl.abs sum, then scale), num_warps heuristic.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l1norm_kernel(x_ptr, y_ptr, D, stride_row, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    y_row = y_ptr + row * stride_row
    acc = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for off in range(0, D, BLOCK_D):
        cols = off + tl.arange(0, BLOCK_D)
        x = tl.load(x_row + cols, mask=cols < D, other=0.0)
        acc += tl.abs(x)
    mean_abs = tl.sum(acc, axis=0) / D
    inv = 1.0 / mean_abs
    for off in range(0, D, BLOCK_D):
        cols = off + tl.arange(0, BLOCK_D)
        mask = cols < D
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x * inv, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2
        x = x.contiguous()
        B, D = x.shape
        y = torch.empty_like(x)
        BLOCK_D = min(triton.next_power_of_2(D), 8192)
        num_warps = 8 if BLOCK_D >= 4096 else 4
        l1norm_kernel[(B,)](x, y, D, x.stride(0), BLOCK_D=BLOCK_D, num_warps=num_warps)
        return y
