# An honest Triton ModelNew for KernelBench level1/39_L2Norm_: `if not x.is_cuda` returns the torch expression, else one program per row in two passes (sum of squares over BLOCK_SIZE chunks, then the scaled store), sqrt in float32.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _l2norm_row_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    o_row = out_ptr + row * stride_row
    sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        sq += x * x
    norm = tl.sqrt(tl.sum(sq, axis=0))
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(o_row + cols, x / norm, mask=mask)


def l2_normalize(x: torch.Tensor) -> torch.Tensor:
    if not x.is_cuda:
        return x / torch.norm(x, p=2, dim=1, keepdim=True)
    x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 4096)
    _l2norm_row_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_normalize(x)
