# honest: linear -> sigmoid -> row sum with cuBLAS doing the GEMM and bias (torch.addmm) and one Triton kernel per row applying sigmoid and summing over the row in BLOCK_N chunks into a (batch, 1) output. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sigmoid_rowsum_kernel(h_ptr, out_ptr, N, stride_h, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        h = tl.load(h_ptr + row * stride_h + cols, mask=cols < N, other=0.0)
        acc += tl.where(cols < N, tl.sigmoid(h), 0.0)
    tl.store(out_ptr + row, tl.sum(acc, 0))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        B, N = h.shape
        out = torch.empty((B, 1), device=x.device, dtype=h.dtype)
        sigmoid_rowsum_kernel[(B,)](h, out, N, h.stride(0), BLOCK_N=1024)
        return out
