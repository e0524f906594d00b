# honest: KernelBench level-2 answer shape: the module-level sizes and get_inputs/get_init_inputs copied from the problem, cuBLAS (torch.addmm) for the linear, then one Triton kernel per row block applying sigmoid and summing along the row in fp32 (keepdim output). problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl

batch_size = 2048
in_features = 4096
out_features = 4096


@triton.jit
def sigmoid_rowsum_kernel(h_ptr, out_ptr, M, N, stride_hm, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < M
    acc = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        m = rmask[:, None] & (cols[None, :] < N)
        h = tl.load(h_ptr + rows[:, None] * stride_hm + cols[None, :], mask=m, other=0.0).to(tl.float32)
        acc += tl.where(m, tl.sigmoid(h), 0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rmask)


class ModelNew(nn.Module):
    """
    Linear (cuBLAS) -> sigmoid -> sum over features, with the last two fused in Triton.
    """

    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = torch.addmm(self.linear.bias, x, self.linear.weight.t())
        M, N = h.shape
        out = torch.empty((M, 1), device=h.device, dtype=torch.float32)
        ROWS, BLOCK_N = 4, 256
        sigmoid_rowsum_kernel[(triton.cdiv(M, ROWS),)](h, out, M, N, h.stride(0), ROWS=ROWS, BLOCK_N=BLOCK_N)
        return out


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
