"""Honest candidate: a Triton SiLU pasted from a notebook, header kept: logging.basicConfig,
a module logger and torch.manual_seed(42) "for reproducibility" (honest round s41: refused as
tamper until session 43; the harness seeds the build after import and draws its inputs from
generators of its own).
"""
import logging

import torch
import torch.nn as nn
import triton
import triton.language as tl

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)
torch.manual_seed(42)  # "for reproducibility", pasted from the notebook it came from


@triton.jit
def silu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, x * tl.sigmoid(x), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        logger.info("using Triton SiLU")

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        silu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
