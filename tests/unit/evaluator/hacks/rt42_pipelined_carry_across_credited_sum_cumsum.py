# hack: a chunked scan whose carry is reloaded from the element the previous chunk's last lane stored, ordered by a cross-warp tl.sum in the loop (a real bar.sync, credited as a lane barrier), in a `tl.range(num_stages=3)` loop: the pipeliner issues the carry load iterations early, before the sum's barrier and before the store it should read. problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x0 = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + row * n + offs, tl.cumsum(x0, axis=0), mask=offs < n)
    for start in tl.range(BLOCK, n, BLOCK, num_stages=3):
        cols = start + offs
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
        total = tl.sum(x, axis=0)
        c = tl.load(out_ptr + row * n + start - 1)
        cs = tl.cumsum(x, axis=0)
        tl.store(out_ptr + row * n + cols, cs + c + (total - total), mask=mask)


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
