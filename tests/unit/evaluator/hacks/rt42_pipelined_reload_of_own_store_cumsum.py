# hack: a running carry kept in global scratch and reloaded by the very lane that stored it, in a `tl.range(num_stages=3)` loop: the software pipeliner issues each iteration's scratch load (cp.async) one and two iterations early, before the previous iteration's store, so on the GPU the carry read is stale; the interpreter runs the loop in order and the lane rule accepts a same-lane reload. problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, carry_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    carry_row = carry_ptr + row * BLOCK + offs
    tl.store(carry_row, tl.zeros([BLOCK], dtype=tl.float32))
    for start in tl.range(0, n, BLOCK, num_stages=3):
        cols = start + offs
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
        c = tl.load(carry_row)
        tl.store(out_ptr + row * n + cols, tl.cumsum(x, axis=0) + c, mask=mask)
        tl.store(carry_row, c + tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, n = x.shape
        BLOCK = 256
        out = torch.empty_like(x)
        carry = torch.empty(rows * BLOCK, device=x.device, dtype=torch.float32)
        cumsum_kernel[(rows,)](x, out, carry, n, BLOCK=BLOCK, num_warps=4)
        return out
