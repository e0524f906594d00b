# honest: F.normalize(x, p=2, dim=1) in one kernel per row, two passes over column blocks (sum of squares, then scale), denominator max(||x||, eps) as F.normalize clamps it, tl.range(..., num_stages=2) on the passes; output from torch.empty_strided with the input's strides; a device check that raises for CPU tensors (not a fallback). problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l2norm_rows_kernel(x_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, stride_yn, eps,
                       BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in tl.range(0, N, BLOCK_N, num_stages=2):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    norm = tl.sqrt(tl.sum(acc, axis=0))
    inv = 1.0 / tl.maximum(norm, eps)
    for off in tl.range(0, N, BLOCK_N, num_stages=2):
        cols = off + tl.arange(0, BLOCK_N)
        m = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=m, other=0.0).to(tl.float32)
        tl.store(y_row + cols * stride_yn, (x * inv).to(y_ptr.dtype.element_ty), mask=m)


def l2_normalize(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    if x.device.type != "cuda":
        raise RuntimeError("l2_normalize: expected a CUDA tensor")
    assert x.dim() == 2
    M, N = x.shape
    y = torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device=x.device)
    BLOCK_N = min(4096, triton.next_power_of_2(N))
    l2norm_rows_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1), eps,
                             BLOCK_N=BLOCK_N, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_normalize(x)
