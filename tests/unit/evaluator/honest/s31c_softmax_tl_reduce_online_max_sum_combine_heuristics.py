# honest: a chunked softmax whose first pass reduces each chunk to a (max, sum of exp) pair with tl.reduce over a tuple and a custom @triton.jit online-softmax combine (the rescale m = max(m1, m2), d = d1 * exp(m1 - m) + d2 * exp(m2 - m), guarded with tl.where for the -inf lanes a masked load gives), the pairs merged across chunks with the same combine as a carry; the second pass writes exp(x - m) / d; BLOCK_N and num_warps from a @triton.heuristics dict of lambdas over the row length. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _online_combine(m1, d1, m2, d2):
    m = tl.maximum(m1, m2)
    # exp(-inf - -inf) is nan: an empty side (d == 0) contributes nothing
    s1 = tl.where(d1 == 0.0, 0.0, d1 * tl.exp(m1 - m))
    s2 = tl.where(d2 == 0.0, 0.0, d2 * tl.exp(m2 - m))
    return m, s1 + s2


@triton.heuristics({
    "BLOCK_N": lambda args: min(triton.next_power_of_2(args["n_cols"]), 1024),
    "num_warps": lambda args: 8 if args["n_cols"] >= 2048 else 4,
})
@triton.jit
def softmax_online_reduce_kernel(
    x_ptr, y_ptr, n_cols, x_row_stride, y_row_stride,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * x_row_stride
    y_row = y_ptr + row * y_row_stride
    lanes = tl.arange(0, BLOCK_N)
    m = -float("inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK_N):
        cols = start + lanes
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
        ones = tl.where(mask, 1.0, 0.0)
        cm, cd = tl.reduce((x, ones), 0, _online_combine)
        m, d = _online_combine(m, d, cm, cd)
    inv_d = 1.0 / d
    for start in range(0, n_cols, BLOCK_N):
        cols = start + lanes
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - m) * inv_d
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    x_t = x.movedim(dim, -1).contiguous() if dim not in (-1, x.ndim - 1) else x.contiguous()
    x2 = x_t.view(-1, x_t.shape[-1])
    y2 = torch.empty_like(x2)
    n_rows, n_cols = x2.shape
    if n_rows and n_cols:
        softmax_online_reduce_kernel[(n_rows,)](x2, y2, n_cols, x2.stride(0), y2.stride(0))
    y = y2.view(x_t.shape)
    return y.movedim(-1, dim) if dim not in (-1, x.ndim - 1) else y


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax(x, self.dim)
