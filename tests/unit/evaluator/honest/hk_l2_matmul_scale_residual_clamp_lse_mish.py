# An honest ModelNew for KernelBench level2/22_Matmul_Scale_ResidualAdd_Clamp_LogSumExp_Mish; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_lse_mish_kernel(x_ptr, out_ptr, N, stride_row, factor, clamp_min, clamp_max,
                        BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
    x = x * factor                       # x * scale, then x + x
    x = tl.minimum(tl.maximum(x, clamp_min), clamp_max)
    x = tl.where(mask, x, float("-inf"))
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    # x * mish(x)
    sp = tl.where(lse > 20.0, lse, tl.log(1.0 + tl.exp(tl.minimum(lse, 20.0))))
    e = tl.exp(-2.0 * sp)
    mish = lse * (1.0 - e) / (1.0 + e)
    tl.store(out_ptr + row, lse * mish)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scale_factor, clamp_min, clamp_max):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(input_size, hidden_size)
        self.scale_factor = scale_factor
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        h = torch.addmm(self.matmul.bias, x, self.matmul.weight.t())
        B, N = h.shape
        out = torch.empty(B, device=h.device, dtype=h.dtype)
        row_lse_mish_kernel[(B,)](h, out, N, h.stride(0), 2.0 * self.scale_factor,
                                  self.clamp_min, self.clamp_max,
                                  BLOCK_N=triton.next_power_of_2(N))
        return out.view(B, 1)  # keepdim=True
