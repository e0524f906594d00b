# An honest Triton ModelNew for KernelBench level1/47_Sum_reduction_over_a_dimension: the input viewed as (outer, R, inner) for any dim, a 2-D tile loop over R accumulating in float32, tl.sum(axis=0), keepdim output; a torch fallback for a non-CUDA tensor.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_dim_kernel(x_ptr, out_ptr, R, INNER, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    pid_o = tl.program_id(0)
    pid_i = tl.program_id(1)
    offs_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    mask_i = offs_i < INNER
    base = x_ptr + pid_o.to(tl.int64) * R * INNER
    acc = tl.zeros((BLOCK_R, BLOCK_I), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        m = (offs_r[:, None] < R) & mask_i[None, :]
        acc += tl.load(base + offs_r[:, None] * INNER + offs_i[None, :], mask=m, other=0.0).to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + pid_o * INNER + offs_i, total, mask=mask_i)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return torch.sum(x, dim=self.dim, keepdim=True)
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
        out_shape = shape.copy()
        out_shape[dim] = 1
        out = torch.empty(out_shape, device=x.device, dtype=x.dtype)
        BLOCK_R, BLOCK_I = 32, 128
        grid = (outer, triton.cdiv(inner, BLOCK_I))
        sum_dim_kernel[grid](x, out, R, inner, BLOCK_R=BLOCK_R, BLOCK_I=BLOCK_I)
        return out
