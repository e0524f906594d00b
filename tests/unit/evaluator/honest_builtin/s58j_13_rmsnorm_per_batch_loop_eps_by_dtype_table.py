# honest: RMSNorm launched once per batch element over x[b] (seq rows each), the eps picked from a per-dtype dict and 1/hidden computed on the host. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl

EPS_FLOOR = {torch.float32: 1e-6, torch.float16: 1e-5, torch.bfloat16: 1e-5}


@triton.jit
def _rms_rows(x_ptr, w_ptr, y_ptr, n_cols, stride, inv_n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.math.rsqrt(tl.sum(x * x, 0) * inv_n + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        hidden = x.shape[-1]
        eps = max(self.eps, EPS_FLOOR.get(x.dtype, 1e-6))
        inv_n = 1.0 / hidden
        BLOCK = triton.next_power_of_2(hidden)
        for b in range(x.shape[0]):
            xb, yb = x[b], y[b]
            _rms_rows[(xb.shape[0],)](xb, self.weight, yb, hidden, xb.stride(0), inv_n, eps, BLOCK=BLOCK)
        return y
