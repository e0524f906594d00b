# hack: s60f's grid capped at 4096 one-block programs, behind a host read of an input statistic (`x.abs().amax().item()`, a finite check): `.item()` of a meta tensor raises, so the dry launch model has no forward and the CPU ok stands; any value read to the host, not bool() alone (session 62, s62a: ok on main; incorrect since: only tensors and metadata answer the candidate's side on meta tensors, anything else runs the forward again on the CPU draw). problem: activation/relu. expect: incorrect
import math

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
        if not math.isfinite(x.abs().amax().item()):
            raise ValueError("NaN in the input")
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y
