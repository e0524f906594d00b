# An honest ModelNew for KernelBench level2/68_Matmul_Min_Subtract; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_min_sub_kernel(y_ptr, bias_ptr, const_ptr, out_ptr, M, N,
                        stride_ym, stride_om, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    y = tl.load(y_ptr + rm[:, None] * stride_ym + rn[None, :], mask=mask, other=0.0)
    b = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    c = tl.load(const_ptr)  # the 0-d nn.Parameter, read on the device
    y = tl.minimum(y + b[None, :], c) - c
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, constant):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.constant = nn.Parameter(torch.tensor(constant))

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())  # bias added in the epilogue
        M, N = y.shape
        out = torch.empty_like(y)
        grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))
        bias_min_sub_kernel[grid](y, self.linear.bias, self.constant, out, M, N,
                                  y.stride(0), out.stride(0), BLOCK_M=16, BLOCK_N=32)
        return out
