# honest: last-dim mean with @triton.heuristics choosing BLOCK_N (next power of two of the row, capped) and ROWS per program, a 2D (ROWS x BLOCK_N) tile loop over columns summing in fp32, the row sums and the means both stored (the sum buffer kept as a second output, as code that reuses it does), the mean returned. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_N": lambda args: min(1024, triton.next_power_of_2(args["n_cols"])),
    "ROWS": lambda args: 4 if args["n_cols"] <= 4096 else 1,
})
@triton.jit
def row_mean_kernel(x_ptr, sum_ptr, mean_ptr, n_rows, n_cols, stride_row, BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_mask = rows < n_rows
    base = rows.to(tl.int64) * stride_row
    acc = tl.zeros((ROWS, BLOCK_N), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        m = row_mask[:, None] & (cols[None, :] < n_cols)
        acc += tl.load(x_ptr + base[:, None] + cols[None, :], mask=m, other=0.0).to(tl.float32)
    s = tl.sum(acc, axis=1)
    tl.store(sum_ptr + rows, s, mask=row_mask)
    tl.store(mean_ptr + rows, (s / n_cols).to(mean_ptr.dtype.element_ty), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        n_rows, n_cols = x2.shape
        sums = torch.empty(n_rows, device=x.device, dtype=torch.float32)
        means = torch.empty(n_rows, device=x.device, dtype=x.dtype)
        grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)
        row_mean_kernel[grid](x2, sums, means, n_rows, n_cols, x2.stride(0))
        self.last_sums = sums
        return means.view(x.shape[:-1])
