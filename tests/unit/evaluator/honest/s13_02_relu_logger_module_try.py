import logging

import torch
import torch.nn as nn
import triton
import triton.language as tl

logger = logging.getLogger(__name__)

try:
    HAS_CUDA = torch.cuda.is_available()
except Exception:
    HAS_CUDA = False


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def extra_repr(self):
        return f"{self.__class__.__name__}()"

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        logger.debug("relu on %d elements", n)
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
