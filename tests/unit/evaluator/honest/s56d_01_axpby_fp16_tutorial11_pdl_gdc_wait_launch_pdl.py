# honest: axpby in the style of Triton's tutorial 11 (programmatic dependent launch): the kernel calls tl.extra.cuda's gdc_wait() before its loads and gdc_launch_dependents() after them behind a USE_GDC constexpr, and the launch passes launch_pdl=True when the device reports compute capability 9 or more (the tutorial's supports_pdl); alpha and beta are fp32 scalars, the math in fp32, the store back in fp16. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def supports_pdl():
    return is_cuda() and torch.cuda.get_device_capability()[0] >= 9


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n_elements,
                 BLOCK_SIZE: tl.constexpr, USE_GDC: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    if USE_GDC:
        # the inputs may come from the kernel launched just before this one
        gdc_wait()
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    if USE_GDC:
        # nothing after the loads depends on the previous grid: let the next one start
        gdc_launch_dependents()
    out = alpha * x + beta * y
    tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)


def axpby(x: torch.Tensor, y: torch.Tensor, alpha: float, beta: float, launch_pdl: bool = True):
    assert x.shape == y.shape and x.dtype == y.dtype
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]), )
    axpby_kernel[grid](x, y, out, alpha, beta, n_elements, BLOCK_SIZE=1024,
                       USE_GDC=launch_pdl, launch_pdl=launch_pdl)
    return out


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.launch_pdl = supports_pdl()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return axpby(x, y, self.alpha, self.beta, launch_pdl=self.launch_pdl)
