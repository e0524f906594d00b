# honest: x - x.mean(dim=1, keepdim=True) per row: a first pass sums the row in fp32 blocks (tl.range with loop_unroll_factor=2), then a second pass subtracts the mean and stores; inputs near 3.0 with 1e-3 noise, so the mean is taken in fp32 with a per-lane accumulator (no catastrophic single running scalar). problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def subtract_row_mean_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride_x
    yr = y_ptr + row * stride_y
    lane_sum = tl.zeros([BLOCK], dtype=tl.float32)
    for off in tl.range(0, N, BLOCK, loop_unroll_factor=2):
        cols = off + tl.arange(0, BLOCK)
        lane_sum += tl.load(xr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(lane_sum, axis=0) / N
    for off in tl.range(0, N, BLOCK, loop_unroll_factor=2):
        cols = off + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(xr + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(yr + cols, (x - mean).to(y_ptr.dtype.element_ty), mask=m)


def subtract_mean(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    x = x.contiguous()
    y = torch.empty_like(x)
    BLOCK = 1024
    subtract_row_mean_kernel[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return subtract_mean(x)
