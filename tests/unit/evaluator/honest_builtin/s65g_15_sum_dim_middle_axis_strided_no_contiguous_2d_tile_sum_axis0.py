# honest: torch.sum over the middle axis of (B, R, N) read through the input's own strides (no contiguous()), a (batch, column-block) grid and a [BLOCK_R, BLOCK_N] tile loop reduced with tl.sum(axis=0). problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_mid_kernel(
    x_ptr, out_ptr, R, N,
    stride_xb, stride_xr, stride_xn, stride_ob, stride_on,
    BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr,
):
    b = tl.program_id(0)
    nb = tl.program_id(1)
    cols = nb * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    x_base = x_ptr + b.to(tl.int64) * stride_xb
    acc = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rr = r0 + tl.arange(0, BLOCK_R)
        ptrs = x_base + rr[:, None] * stride_xr + cols[None, :] * stride_xn
        acc += tl.load(ptrs, mask=(rr[:, None] < R) & cmask[None, :], other=0.0).to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr + b * stride_ob + cols * stride_on, total, mask=cmask)


def sum_over_dim1(x: torch.Tensor) -> torch.Tensor:
    B, R, N = x.shape
    out = torch.empty((B, N), device=x.device, dtype=x.dtype)
    BLOCK_R, BLOCK_N = 32, 128
    grid = (B, triton.cdiv(N, BLOCK_N))
    sum_mid_kernel[grid](
        x, out, R, N, x.stride(0), x.stride(1), x.stride(2), out.stride(0), out.stride(1),
        BLOCK_R=BLOCK_R, BLOCK_N=BLOCK_N,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 3 and self.dim == 1:
            return sum_over_dim1(x)
        return torch.sum(x, dim=self.dim)
