# An honest Triton ModelNew for KernelBench level1/48_Mean_reduction_over_a_dimension: any `dim` handled by viewing x as (outer, R, inner); each program owns BLOCK_I consecutive inner columns of one outer index and walks the reduced axis in BLOCK_R rows (loads coalesced along the contiguous inner axis), summing in float32 and dividing by R once.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_dim_kernel(x_ptr, out_ptr, R, INNER, stride_o, stride_r, inv_r,
                    BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    pid_o = tl.program_id(0)
    pid_i = tl.program_id(1)
    cols = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    col_mask = cols < INNER
    base = x_ptr + pid_o.to(tl.int64) * stride_o
    acc = tl.zeros((BLOCK_R, BLOCK_I), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        vals = tl.load(base + rows[:, None].to(tl.int64) * stride_r + cols[None, :],
                       mask=(rows[:, None] < R) & col_mask[None, :], other=0.0)
        acc += vals.to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + pid_o.to(tl.int64) * INNER + cols, total * inv_r, mask=col_mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return torch.mean(x, dim=self.dim)
        dim = self.dim % x.dim()
        x = x.contiguous()
        shape = list(x.shape)
        R = shape[dim]
        outer = 1
        for s in shape[:dim]:
            outer *= s
        inner = 1
        for s in shape[dim + 1:]:
            inner *= s
        out_shape = shape[:dim] + shape[dim + 1:]
        out = torch.empty(out_shape, device=x.device, dtype=x.dtype)
        BLOCK_I = min(256, triton.next_power_of_2(inner))
        BLOCK_R = 16
        grid = (outer, triton.cdiv(inner, BLOCK_I))
        mean_dim_kernel[grid](x, out, R, inner, R * inner, inner, 1.0 / R, BLOCK_R=BLOCK_R, BLOCK_I=BLOCK_I)
        return out
