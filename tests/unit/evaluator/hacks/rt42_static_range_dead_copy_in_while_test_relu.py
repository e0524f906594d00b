# hack: a helper called in a `while` test (the source counts no loop there, TTGIR one: the scf.while) whose tl.static_range(2) body holds one tl.max call site: the compiler unrolls it into two ops with one location, drops the first (its value unused) and keeps the second, so the site is recorded as a cross-warp barrier and the interpreter credits both; the cross-lane reload after the dead copy has no barrier on the GPU. problem: activation/relu. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _again(x, out_ptr, base, offs, n, k, BLOCK: tl.constexpr):
    rev = BLOCK - 1 - offs
    mrev = base + rev < n
    go = k < 0
    for i in tl.static_range(2):
        top = tl.max(x + k, axis=0)
        if i == 0:
            v = tl.load(out_ptr + base + rev, mask=mrev, other=0.0)
            tl.store(out_ptr + base + rev, tl.where(k == 0, tl.maximum(v, 0.0) * 0.5, v), mask=mrev)
        else:
            go = (k < 1) | (top != top)
    return go


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = pid * BLOCK
    mask = base + offs < n
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(out_ptr + base + offs, x * 2.0, mask=mask)
    k = 0
    while _again(x, out_ptr, base, offs, n, k, BLOCK):
        k += 1


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK, num_warps=4)
        return out
