# honest: linear + softmax with F.linear (cuBLAS) for the logits and Triton tutorial 02's row softmax run in place on them: one program per row, BLOCK_SIZE = triton.next_power_of_2(n_cols) so the whole row sits in one block, -inf padding, max subtracted, num_warps picked from the block size. problem: fused/matmul_softmax
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(x_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start = x_ptr + row_idx * row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(row_start + col_offsets, mask=mask, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(row_start + col_offsets, numerator / denominator, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        logits = F.linear(x, self.linear.weight, self.linear.bias)
        n_rows, n_cols = logits.shape
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        num_warps = 4
        if BLOCK_SIZE >= 2048:
            num_warps = 8
        if BLOCK_SIZE >= 4096:
            num_warps = 16
        softmax_row_kernel[(n_rows,)](logits, logits.stride(0), n_cols,
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
        return logits
