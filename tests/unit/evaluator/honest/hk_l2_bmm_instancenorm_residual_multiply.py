# An honest ModelNew for KernelBench level2/28_BMM_InstanceNorm_Sum_ResidualAdd_Multiply; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def rownorm_add_mul_kernel(x_ptr, y_ptr, out_ptr, N, eps, BLOCK_N: tl.constexpr):
    # InstanceNorm2d over x.view(B, 1, 1, N): per-row normalisation, no affine
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    xn = xc * (1.0 / tl.sqrt(var + eps))
    y = tl.load(y_ptr + row * N + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * N + cols, (xn + y) * y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.bmm = nn.Linear(in_features, out_features)
        self.instance_norm = nn.InstanceNorm2d(out_features, eps=eps, momentum=momentum)

    def forward(self, x, y):
        h = F.linear(x, self.bmm.weight, self.bmm.bias).contiguous()
        y = y.contiguous()
        B, N = h.shape
        out = torch.empty_like(h)
        rownorm_add_mul_kernel[(B,)](h, y, out, N, self.instance_norm.eps,
                                     BLOCK_N=triton.next_power_of_2(N))
        return out
