# hack: s60f's grid capped at 4096 one-block programs (4M of the GPU's 33.5M outputs written), behind a host NaN guard `if bool(torch.isnan(x).any()): raise` (one boolean read to the host, 1/32 of a host read): on meta tensors bool() raises, so the dry launch model had no forward to record and the CPU ok stood (session 61, s61d; incorrect since session 62, s62a: the real forward on the CPU draw answers the guard and records the capped grid). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if bool(torch.isnan(x).any()):
            raise ValueError("NaN in the input")
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y
