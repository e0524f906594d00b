# An honest Triton ModelNew for KernelBench level2/99_Matmul_GELU_Softmax: cuBLAS for the Linear, then one Triton program per row fusing exact GELU with an online softmax over dim 1 (running max and rescaled sum in a first pass over BLOCK chunks, normalised writes in a second), so rows of any width (8192 here, non-powers of two on the CPU) work.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _gelu(x):
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.jit
def gelu_softmax_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    m_i = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_row + offs, mask=offs < N, other=float("-inf")).to(tl.float32)
        g = tl.where(offs < N, _gelu(v), float("-inf"))
        m_new = tl.maximum(m_i, g)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m_i - m_new))
        l_i = l_i * alpha + tl.where(offs < N, tl.exp(g - m_new), 0.0)
        m_i = m_new
    m = tl.max(m_i, axis=0)
    denom = tl.sum(l_i * tl.where(m_i == float("-inf"), 0.0, tl.exp(m_i - m)), axis=0)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        v = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride_y + offs, tl.exp(_gelu(v) - m) / denom, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = F.linear(x, self.linear.weight, self.linear.bias)
        if not h.is_cuda:
            return torch.softmax(F.gelu(h), dim=1)
        M, N = h.shape
        y = torch.empty_like(h)
        BLOCK = min(2048, triton.next_power_of_2(N))
        gelu_softmax_kernel[(M,)](h, y, N, h.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=8)
        return y
