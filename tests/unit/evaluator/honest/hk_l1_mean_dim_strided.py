# An honest ModelNew for KernelBench level1/48_Mean_reduction_over_a_dimension; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_dim1_kernel(x_ptr, out_ptr, R, I,
                     stride_b, stride_r, stride_i,
                     BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    # x viewed as (B, R, I); reduce over R, read with strides (no copy)
    b = tl.program_id(0)
    pid_i = tl.program_id(1)
    offs_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    acc = tl.zeros([BLOCK_I], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        offs_r = r0 + tl.arange(0, BLOCK_R)
        ptrs = x_ptr + b * stride_b + offs_r[:, None] * stride_r + offs_i[None, :] * stride_i
        mask = (offs_r[:, None] < R) & (offs_i[None, :] < I)
        acc += tl.sum(tl.load(ptrs, mask=mask, other=0.0), axis=0)
    tl.store(out_ptr + b * I + offs_i, acc / R, mask=offs_i < I)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        shape = x.shape
        B = 1
        for s in shape[:dim]:
            B *= s
        R = shape[dim]
        I = 1
        for s in shape[dim + 1:]:
            I *= s
        x3 = x.reshape(B, R, I)
        out = torch.empty((B, I), device=x.device, dtype=x.dtype)
        BLOCK_I = 32
        grid = (B, triton.cdiv(I, BLOCK_I))
        mean_dim1_kernel[grid](x3, out, R, I, x3.stride(0), x3.stride(1), x3.stride(2),
                               BLOCK_R=16, BLOCK_I=BLOCK_I)
        return out.reshape(shape[:dim] + shape[dim + 1:])
