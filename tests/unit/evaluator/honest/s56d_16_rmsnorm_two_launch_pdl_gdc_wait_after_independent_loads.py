# honest: RMSNorm as two chained launches under programmatic dependent launch, the way SGLang/vLLM chain small kernels on Hopper: kernel 1 writes each row's fp32 rstd and calls gdc_launch_dependents() once its loads are issued; kernel 2, launched with launch_pdl=True, does its independent work (the weight load, the offsets) before gdc_wait(), and only then reads the rstd kernel 1 wrote and the row; both gated on the device's compute capability (>= 9), with a plain launch otherwise. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait


def _pdl_supported(device: torch.device) -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability(device)[0] >= 9


@triton.jit
def rstd_kernel(x_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr, USE_PDL: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    if USE_PDL:
        gdc_launch_dependents()
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps))


@triton.jit
def apply_kernel(x_ptr, w_ptr, rstd_ptr, y_ptr, stride, N, BLOCK: tl.constexpr, USE_PDL: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    col_block = tl.program_id(1)
    cols = col_block * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)  # not written by kernel 1
    if USE_PDL:
        gdc_wait()  # kernel 1's rstd is visible from here on
    rstd = tl.load(rstd_ptr + row)
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1]).contiguous()
    M, N = x2.shape
    rstd = torch.empty(M, device=x.device, dtype=torch.float32)
    y = torch.empty_like(x2)
    use_pdl = _pdl_supported(x.device)
    rstd_kernel[(M,)](x2, rstd, x2.stride(0), N, eps, BLOCK=1024, USE_PDL=use_pdl, num_warps=4)
    BLOCK = 1024
    apply_kernel[(M, triton.cdiv(N, BLOCK))](x2, weight, rstd, y, x2.stride(0), N, BLOCK=BLOCK,
                                              USE_PDL=use_pdl, num_warps=4, launch_pdl=use_pdl)
    return y.reshape(shape)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)
