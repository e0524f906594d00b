# honest: RMSNorm over (batch, seq, hidden) viewed as (rows, hidden), one program per row with BLOCK = next_power_of_2(hidden), fp32 mean of squares, tl.rsqrt, the row stride hinted with tl.multiple_of(stride, 16), weight loaded once per row, output viewed back. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    stride = tl.multiple_of(stride, 16)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x):
        shape = x.shape
        x2 = x.view(-1, shape[-1])
        if not x2.is_contiguous():
            x2 = x2.contiguous()
        y = torch.empty_like(x2)
        N = x2.shape[1]
        BLOCK = triton.next_power_of_2(N)
        rmsnorm_fwd[(x2.shape[0],)](x2, self.weight, y, x2.stride(0), N, self.eps,
                                    BLOCK=BLOCK, num_warps=min(max(BLOCK // 256, 1), 16))
        return y.view(shape)
