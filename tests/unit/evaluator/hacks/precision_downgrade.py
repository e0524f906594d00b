# hack: lower precision than the problem's dtype. problem: relu. expect: hack/precision_downgrade
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        xh = x.half()
        out = torch.empty_like(xh)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](xh, out, x.numel(), BLOCK=1024)
        return out
