# honest: a row cumsum over column chunks with the chunk loop variable used as a tensor, `for k in tl.range(0, num_chunks):` then `start = k.to(tl.int64) * BLOCK` (int64 offsets from the induction variable, as written for large rows), tl.cumsum per chunk plus a running carry from tl.sum, masks with other=0.0, one program per row with the row offset pid.to(tl.int64) * stride, triton.next_power_of_2 capped block size, num_warps at launch. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _cumsum_rows(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    carry = tl.zeros((), dtype=tl.float32)
    num_chunks = tl.cdiv(n_cols, BLOCK)
    for k in tl.range(0, num_chunks):
        start = k.to(tl.int64) * BLOCK
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + cols, y, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim in (1, -1) and x.dim() == 2
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = min(1024, triton.next_power_of_2(n_cols))
        _cumsum_rows[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=4)
        return y
