# honest: row softmax with 2-D [ROWS, BLOCK] tiles (ROWS rows per program), tl.max/tl.sum along axis 1 with keep_dims=True so the statistics broadcast back without [:, None], BLOCK = next_power_of_2(n_cols), num_warps=16 as the tutorial's heuristic picks for wide rows. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(out_ptr, in_ptr, n_rows, n_cols, in_stride, out_stride,
                        ROWS: tl.constexpr, BLOCK: tl.constexpr):
    row0 = tl.program_id(0) * ROWS
    rows = row0 + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(in_ptr + rows * in_stride + cols, mask=mask, other=-float("inf"))
    x_max = tl.max(x, axis=1, keep_dims=True)
    num = tl.exp(x - x_max)
    den = tl.sum(num, axis=1, keep_dims=True)
    tl.store(out_ptr + rows * out_stride + cols, num / den, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(n_cols)
        ROWS = 2
        softmax_rows_kernel[(triton.cdiv(n_rows, ROWS),)](out, x, n_rows, n_cols, x.stride(0), out.stride(0),
                                                          ROWS=ROWS, BLOCK=BLOCK, num_warps=16)
        return out
