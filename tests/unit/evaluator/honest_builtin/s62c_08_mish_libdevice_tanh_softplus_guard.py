# honest: mish as x * tanh(softplus(x)) through libdevice.tanh and log1p, softplus guarded above 20 as torch does, one fused pass, in unsloth's activation style. problem: activation/mish. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _mish_fwd(X, Y, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(X + offsets, mask=mask, other=0).to(tl.float32)
    sp = tl.where(x > 20.0, x, libdevice.log1p(tl.exp(tl.minimum(x, 20.0))))
    y = x * libdevice.tanh(sp)
    tl.store(Y + offsets, y.to(Y.dtype.element_ty), mask=mask)


def mish(x):
    shape = x.shape
    x = x.view(-1) if x.is_contiguous() else x.reshape(-1)
    y = torch.empty_like(x)
    n = x.numel()
    _mish_fwd[(triton.cdiv(n, 1024),)](x, y, n, BLOCK_SIZE=1024)
    return y.view(shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return mish(x)
