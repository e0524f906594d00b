# honest: row max with tl.reduce and a @triton.jit combine that lets NaN win (`tl.where((a > b) | (a != a), a, b)`), so a NaN row gives NaN as torch.max does; one program per row folds column chunks into a running lane-wise max with the same combine, masked lanes loaded as -inf. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _nan_max(a, b):
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    run = tl.full((BLOCK,), float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        run = _nan_max(run, x)
    best = tl.reduce(run, 0, _nan_max)
    tl.store(out_ptr + row, best.to(out_ptr.dtype.element_ty))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n_cols = x.shape[-1]
        x2 = x.contiguous().view(-1, n_cols)
        out = torch.empty(x2.shape[0], device=x.device, dtype=x.dtype)
        BLOCK = min(2048, triton.next_power_of_2(n_cols))
        row_max_kernel[(x2.shape[0],)](x2, out, n_cols, x2.stride(0), BLOCK=BLOCK)
        return out.view(x.shape[:-1])
