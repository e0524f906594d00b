# honest: x * row_scale with row_scale (n_rows, 1): 2-D tiles read and written through host-side TensorDescriptor objects (the replacement for block pointers, which Triton 3.9 removed: out-of-bounds parts of a tile load as zero and are not stored), the per-row scale as a [BLOCK_M] vector broadcast along columns; falls back to a pointer kernel when the row stride is not 16-byte aligned. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

BLOCK_M, BLOCK_N = 32, 128


@triton.jit
def mul_rows_desc_kernel(x_desc, y_desc, s_ptr, M, stride_s, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    s = tl.load(s_ptr + rows * stride_s, mask=rows < M, other=0.0)
    x = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], x * s[:, None])


@triton.jit
def mul_rows_ptr_kernel(x_ptr, s_ptr, y_ptr, M, N, stride_xm, stride_s, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    s = tl.load(s_ptr + rows * stride_s, mask=rows < M, other=0.0)
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + rows[:, None] * stride_ym + cols[None, :], x * s[:, None], mask=mask)


def mul_broadcast(x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    assert row_scale.shape == (M, 1)
    x = x.contiguous()
    y = torch.empty_like(x)
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    if (N * x.element_size()) % 16 == 0:
        x_desc = TensorDescriptor.from_tensor(x, [BLOCK_M, BLOCK_N])
        y_desc = TensorDescriptor.from_tensor(y, [BLOCK_M, BLOCK_N])
        mul_rows_desc_kernel[grid](x_desc, y_desc, row_scale, M, row_scale.stride(0),
                                   BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    else:
        mul_rows_ptr_kernel[grid](x, row_scale, y, M, N, x.stride(0), row_scale.stride(0), y.stride(0),
                                  BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        return mul_broadcast(x, row_scale)
