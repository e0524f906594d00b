# honest: flash-linear-attention's softmax (fla/ops/utils/softmax.py @ 8737180) with the op switch of fla/ops/utils/op.py: `if os.environ.get('FLA_USE_FAST_OPS', '0') == '1':` binding exp / exp2 / log / div to libdevice's fast_expf / exp2 / fast_logf / fast_dividef, else to tl.exp / tl.math.exp2 / tl.log and a @triton.jit div_normal helper (module-level names bound to Triton builtins, called in the kernel as `exp(b_x - b_m)`), NUM_WARPS_AUTOTUNE picked by an is_amd flag, `softmax_fwd_kernel(x, p, D: tl.constexpr, B: tl.constexpr)` autotuned over warps keyed on D, launched with keyword arguments only and the output dtype defaulting to torch.float (`torch.empty_like(x, dtype=dtype)`). problem: softmax/softmax
import os
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl
import triton.language.extra.libdevice as tldevice

is_amd = torch.version.hip is not None

if os.environ.get('FLA_USE_FAST_OPS', '0') == '1':
    div = tldevice.fast_dividef
    exp = tldevice.fast_expf
    exp2 = tldevice.exp2
    log = tldevice.fast_logf
    log2 = tldevice.fast_log2f
else:
    @triton.jit
    def div_normal(x, y):
        return x / y
    div = div_normal
    exp = tl.exp
    exp2 = tl.math.exp2
    log = tl.log
    log2 = tl.log2

NUM_WARPS_AUTOTUNE = [1, 2, 4, 8, 16] if is_amd else [1, 2, 4, 8, 16, 32]


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=num_warps)
        for num_warps in NUM_WARPS_AUTOTUNE
    ],
    key=['D']
)
@triton.jit
def softmax_fwd_kernel(
    x,
    p,
    D: tl.constexpr,
    B: tl.constexpr
):
    i_n = tl.program_id(0)
    o_d = tl.arange(0, B)
    m_d = o_d < D

    b_x = tl.load(x + i_n * D + o_d, mask=m_d, other=-float('inf'))
    b_m = tl.max(b_x, 0)
    b_x = exp(b_x - b_m)
    b_p = b_x / tl.sum(b_x, 0)

    tl.store(p + i_n * D + o_d, b_p.to(p.dtype.element_ty), mask=m_d)


def softmax_fwd(
    x: torch.Tensor,
    dtype: Optional[torch.dtype] = torch.float
) -> torch.Tensor:
    shape = x.shape
    x = x.view(-1, x.shape[-1])

    N, D = x.shape
    B = triton.next_power_of_2(D)

    p = torch.empty_like(x, dtype=dtype)
    softmax_fwd_kernel[(N,)](
        x=x,
        p=p,
        D=D,
        B=B
    )
    return p.view(*shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_fwd(x.contiguous())
