# honest: nn.Linear's GEMM through torch (F.linear, cuBLAS) then a Triton row softmax: pass one keeps a running max and rescaled running sum over BLOCK_N chunks (online softmax), pass two writes exp(x - m) / l; one program per row. problem: fused/matmul_softmax
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    m = tl.full((BLOCK_N,), float("-inf"), tl.float32)
    l = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet stay at -inf: guard the rescale
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        l = l * scale + tl.where(m_new == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    m_row = tl.max(m, axis=0)
    l_row = tl.sum(l * tl.exp(m - m_row), axis=0)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(y_row + cols, tl.exp(x - m_row) / l_row, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = F.linear(x, self.linear.weight, self.linear.bias)
        M, N = h.shape
        y = torch.empty_like(h)
        BLOCK_N = min(1024, triton.next_power_of_2(N))
        online_softmax_kernel[(M,)](h, y, N, h.stride(0), y.stride(0), BLOCK_N=BLOCK_N, num_warps=4)
        return y
