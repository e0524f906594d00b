"""A minimal honest candidate file and the static check of it with one snippet appended: the
edges of what the static layer widened for honest code (test_static_widened_accepted.py) and
of what stays refused beside them (test_static_widened_narrow.py)."""
from __future__ import annotations

import textwrap

from common.config.evaluator import StaticConfig
from evaluator.static_checks import check_source

CFG = StaticConfig()

BASE = '''\
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def comb(a, b):
    return a + b


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        k[(1,)](x, out, x.numel(), BLOCK=1024)
        return out
'''


def check_snippet(extra: str):
    return check_source(BASE + "\n" + textwrap.dedent(extra), CFG)

