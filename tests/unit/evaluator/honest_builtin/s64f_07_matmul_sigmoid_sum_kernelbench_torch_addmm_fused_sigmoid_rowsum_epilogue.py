# honest: KernelBench level-2 style (Gemm_Sigmoid_Sum): the GEMM left to torch (torch.addmm with the Linear's bias and transposed weight, cuBLAS's job), then one fused Triton epilogue per row that applies the sigmoid and sums across the features in blocks, writing the (batch, 1) result. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_row_sum_kernel(y_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = y_ptr + row * stride_row
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        v = tl.load(row_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        s = 1.0 / (1.0 + tl.exp(-v))
        acc += tl.where(mask, s, 0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        y = y.contiguous()
        batch, n_cols = y.shape
        out = torch.empty((batch, 1), device=y.device, dtype=y.dtype)
        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 1024)
        sigmoid_row_sum_kernel[(batch,)](y, out, n_cols, y.stride(0), BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
        return out
