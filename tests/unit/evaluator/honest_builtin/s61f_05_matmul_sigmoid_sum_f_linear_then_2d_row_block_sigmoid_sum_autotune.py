# honest: linear -> sigmoid -> row sum with F.linear (cuBLAS, bias fused) producing the logits and an autotuned Triton kernel (key N) reducing BLOCK_ROWS rows at a time over (BLOCK_ROWS, BLOCK_COLS) tiles: sigmoid, masked, summed over axis 1 in fp32, stored into a .view(-1) of the (batch, 1) output. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_ROWS": 1, "BLOCK_COLS": 1024}, num_warps=4),
        triton.Config({"BLOCK_ROWS": 4, "BLOCK_COLS": 256}, num_warps=4),
        triton.Config({"BLOCK_ROWS": 8, "BLOCK_COLS": 128}, num_warps=4),
        triton.Config({"BLOCK_ROWS": 16, "BLOCK_COLS": 512}, num_warps=8),
    ],
    key=["N"],
)
@triton.jit
def sigmoid_row_sum_kernel(z_ptr, out_ptr, M, N, stride_zm,
                           BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    row_mask = rows < M
    acc = tl.zeros((BLOCK_ROWS, BLOCK_COLS), dtype=tl.float32)
    for c0 in range(0, N, BLOCK_COLS):
        cols = c0 + tl.arange(0, BLOCK_COLS)
        mask = row_mask[:, None] & (cols[None, :] < N)
        z = tl.load(z_ptr + rows[:, None] * stride_zm + cols[None, :], mask=mask, other=0.0)
        acc += tl.where(mask, tl.sigmoid(z.to(tl.float32)), 0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = F.linear(x, self.linear.weight, self.linear.bias)
        M, N = z.shape
        out = torch.empty(M, 1, device=z.device, dtype=z.dtype)
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_ROWS"]),)
        sigmoid_row_sum_kernel[grid](z, out.view(-1), M, N, z.stride(0))
        return out
