# honest: fp16 axpby whose wrapper checks x.data_ptr() % 16, y.data_ptr() % 16 and numel % 8 on the host to pick an ALIGNED constexpr (hinting 8-wide vectors with tl.multiple_of on the block start), as xformers-style launchers check pointer alignment; fp32 math, fp16 store. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, n, alpha, beta, BLOCK: tl.constexpr, ALIGNED: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    if ALIGNED:
        start = tl.multiple_of(start, 8)
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(tl.float16), mask=mask)


def _aligned(*tensors, bytes_=16):
    return all(t.data_ptr() % bytes_ == 0 for t in tensors)


class ModelNew(nn.Module):
    def __init__(self, alpha, beta):
        super().__init__()
        self.alpha = float(alpha)
        self.beta = float(beta)

    def forward(self, x, y):
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        aligned = _aligned(x, y, out) and n % 8 == 0
        BLOCK = 4096
        axpby_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, self.alpha, self.beta,
                                               BLOCK=BLOCK, ALIGNED=aligned, num_warps=8)
        return out
