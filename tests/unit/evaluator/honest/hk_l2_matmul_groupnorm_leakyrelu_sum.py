# An honest ModelNew for KernelBench level2/62_Matmul_GroupNorm_LeakyReLU_Sum; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def groupnorm_leaky_double_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C, stride_row, eps, negative_slope,
    GROUP_SIZE: tl.constexpr, BLOCK: tl.constexpr,
):
    # grid = (rows, groups): one program normalises one group of one row
    row = tl.program_id(0)
    g = tl.program_id(1)
    offs = tl.arange(0, BLOCK)
    mask = offs < GROUP_SIZE
    ch = g * GROUP_SIZE + offs
    x = tl.load(x_ptr + row * stride_row + ch, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / GROUP_SIZE
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / GROUP_SIZE
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + ch, mask=mask, other=1.0)
    b = tl.load(b_ptr + ch, mask=mask, other=0.0)
    y = xc * rstd * w + b
    y = tl.where(y > 0, y, y * negative_slope)
    y = y + y
    tl.store(y_ptr + row * stride_row + ch, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, num_groups, eps=1e-5, negative_slope=0.01):
        super(ModelNew, self).__init__()
        self.fc = nn.Linear(input_size, hidden_size)
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=hidden_size, eps=eps)
        self.negative_slope = negative_slope

    def forward(self, x):
        x = F.linear(x, self.fc.weight, self.fc.bias)
        B, C = x.shape
        G = self.gn.num_groups
        gs = C // G
        y = torch.empty_like(x)
        groupnorm_leaky_double_kernel[(B, G)](
            x, self.gn.weight, self.gn.bias, y, C, x.stride(0), self.gn.eps, self.negative_slope,
            GROUP_SIZE=gs, BLOCK=triton.next_power_of_2(gs),
        )
        return y
