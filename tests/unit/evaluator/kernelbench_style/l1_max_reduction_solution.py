# An honest Triton ModelNew for l1_max_reduction.py (KernelBench level1/49_Max_reduction_over_a_dimension): any dim viewed as (outer, reduced, inner), a 2-D grid over inner blocks and outer, a running tl.maximum from -inf over the reduced axis through its stride.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_dim1_kernel(x_ptr, out_ptr, R, Q, stride_b, stride_r, stride_q, BLOCK_Q: tl.constexpr):
    # x: (B, R, Q) reduce over R -> out (B, Q)
    pid_q = tl.program_id(0)
    b = tl.program_id(1)
    offs_q = pid_q * BLOCK_Q + tl.arange(0, BLOCK_Q)
    mask = offs_q < Q
    ptrs = x_ptr + b.to(tl.int64) * stride_b + offs_q * stride_q
    acc = tl.full((BLOCK_Q,), float("-inf"), dtype=tl.float32)
    for r in range(0, R):
        v = tl.load(ptrs + r * stride_r, mask=mask, other=float("-inf"))
        acc = tl.maximum(acc, v)
    tl.store(out_ptr + b * Q + offs_q, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        # view as (outer, reduced, inner)
        outer = 1
        for s in x.shape[:dim]:
            outer *= s
        inner = 1
        for s in x.shape[dim + 1:]:
            inner *= s
        R = x.shape[dim]
        xv = x.contiguous().view(outer, R, inner)
        out = torch.empty((outer, inner), device=x.device, dtype=x.dtype)
        BLOCK_Q = 256
        grid = (triton.cdiv(inner, BLOCK_Q), outer)
        max_dim1_kernel[grid](xv, out, R, inner, xv.stride(0), xv.stride(1), xv.stride(2), BLOCK_Q=BLOCK_Q)
        return out.view(x.shape[:dim] + x.shape[dim + 1:])
