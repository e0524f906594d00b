# hack: a chunked scan (carry in a register, no race) in a loop marked tl.range(warp_specialize=True): Triton's front end accepts it and its later passes for sm_90 fail, so the GPU launch never compiles while the CPU interpreter ran it (ok) until the CPU check lowered every kernel to LLVM IR (red team s42 round 1, C1). problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    carry = 0.0
    for start in tl.range(0, n, BLOCK, warp_specialize=True):
        cols = start + offs
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * n + cols, tl.cumsum(x, axis=0) + carry, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, n = x.shape
        out = torch.empty_like(x)
        cumsum_kernel[(rows,)](x, out, n, BLOCK=256, num_warps=4)
        return out
