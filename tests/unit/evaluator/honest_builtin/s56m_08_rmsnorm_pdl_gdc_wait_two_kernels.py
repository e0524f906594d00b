# honest: RMS norm as two launches chained by programmatic dependent launch (launch_pdl, gdc_wait before the dependent read of the first launch's rstd, gdc_launch_dependents after the loads) behind a USE_GDC constexpr, on when the device is sm_90 or newer. problem: norm/rmsnorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait


def supports_pdl():
    return torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 9


@triton.jit
def rms_kernel(x_ptr, rstd_ptr, n_cols, eps, BLOCK: tl.constexpr, USE_GDC: tl.constexpr):
    row = tl.program_id(0)
    if USE_GDC:
        gdc_wait()
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    if USE_GDC:
        gdc_launch_dependents()
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps))


@triton.jit
def scale_kernel(x_ptr, rstd_ptr, w_ptr, y_ptr, n_cols, BLOCK: tl.constexpr, USE_GDC: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    if USE_GDC:
        gdc_wait()  # rstd is the previous launch's output
    r = tl.load(rstd_ptr + row)
    tl.store(y_ptr + row * n_cols + cols, x * r * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        self.pdl = supports_pdl()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.contiguous().view(-1, shape[-1])
        rows, cols = x2.shape
        rstd = torch.empty(rows, device=x.device, dtype=torch.float32)
        y = torch.empty_like(x2)
        rms_kernel[(rows,)](x2, rstd, cols, self.eps, BLOCK=256, USE_GDC=self.pdl, launch_pdl=self.pdl)
        scale_kernel[(rows, triton.cdiv(cols, 256))](x2, rstd, self.weight, y, cols, BLOCK=256,
                                                    USE_GDC=self.pdl, launch_pdl=self.pdl)
        return y.view(shape)
