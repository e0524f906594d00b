# An honest Triton ModelNew for l3_vanilla_rnn.py (KernelBench level3/33_VanillaRNN): the reference's __init__ copied (the hidden state drawn first, from the file's own copy of the size globals, so the Linear weights come out the same); one tl.dot kernel takes the input-to-hidden GEMM over two K segments, x against W[:, :I] and the hidden state against W[:, I:], so the concatenation is never materialised, with the bias and libdevice's tanh fused; the same kernel without activation computes the output Linear.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

batch_size = 256
input_size = 4096
hidden_size = 4096
output_size = 2048


@triton.jit
def two_segment_linear_kernel(a_ptr, h_ptr, w_ptr, b_ptr, out_ptr, M, N, K1, K2,
                              stride_am, stride_hm, stride_wn, stride_om,
                              TANH: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # first segment: the input against W[:, :K1]
    for k0 in range(0, K1, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K1), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + kk[:, None], mask=(kk[:, None] < K1) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
    # second segment: the hidden state against W[:, K1:K1 + K2]
    for k0 in range(0, K2, BLOCK_K):
        kk = k0 + rk
        a = tl.load(h_ptr + rm[:, None] * stride_hm + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K2), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + K1 + kk[:, None], mask=(kk[:, None] < K2) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if TANH:
        acc = libdevice.tanh(acc)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _linear(a, h, weight, bias, tanh):
    M, K1 = a.shape
    K2 = 0 if h is None else h.shape[1]
    N = weight.shape[0]
    out = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
    two_segment_linear_kernel[grid](a, a if h is None else h, weight, bias, out, M, N, K1, K2,
                                    a.stride(0), a.stride(0) if h is None else h.stride(0), weight.stride(0),
                                    out.stride(0), TANH=tanh, BLOCK_M=32, BLOCK_N=64, BLOCK_K=32)
    return out


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, output_size: int):
        super(ModelNew, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.hidden = torch.randn((batch_size, hidden_size))
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)

    def forward(self, x, initial_hidden=None):
        x = x.contiguous()
        h = self.hidden.to(x.device) if initial_hidden is None else initial_hidden.contiguous()
        self.hidden = _linear(x, h, self.i2h.weight, self.i2h.bias, tanh=True)
        return _linear(self.hidden, None, self.h2o.weight, self.h2o.bias, tanh=False)
