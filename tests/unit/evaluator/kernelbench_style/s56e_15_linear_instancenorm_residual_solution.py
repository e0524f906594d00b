# An honest Triton ModelNew for KernelBench level2/28_BMM_InstanceNorm_Sum_ResidualAdd_Multiply: cuBLAS for the Linear; InstanceNorm2d on the (B, 1, 1, F) view normalises each row over its F features (biased variance, eps from the module), fused in one Triton program per row with (x + y) * y; y read through its own row stride.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def rownorm_residual_kernel(h_ptr, y_ptr, out_ptr, N, stride_h, stride_y, stride_o, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    h = tl.load(h_ptr + row * stride_h + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(h, axis=0) / N
    d = tl.where(mask, h - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    xn = d / tl.sqrt(var + eps)
    y = tl.load(y_ptr + row * stride_y + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * stride_o + offs, (xn + y) * y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.bmm = nn.Linear(in_features, out_features)
        self.eps = eps

    def forward(self, x, y):
        h = F.linear(x, self.bmm.weight, self.bmm.bias)
        B, N = h.shape
        out = torch.empty_like(h)
        BLOCK = triton.next_power_of_2(N)
        rownorm_residual_kernel[(B,)](h, y, out, N, h.stride(0), y.stride(0), out.stride(0), self.eps,
                                      BLOCK=BLOCK, num_warps=8 if BLOCK >= 4096 else 4)
        return out
