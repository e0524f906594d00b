# hack: the pipelined loop (tl.range(num_stages=3)) that reloads a running carry from scratch lives in a @triton.jit(noinline=True) helper: its compiled ops carry the helper's own location, with no call site, so device_compile records the load under ((file, line, col),) while the interpreter looks it up under (helper line, call line): no record, moved_load says "not moved", the same-lane reload of the carry is accepted; on sm_90 the pipeliner still cp.asyncs the carry two iterations early inside the helper (stale carry, rt15 B1). problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(noinline=True)
def _scan_row(x_row, out_row, carry_row, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for start in tl.range(0, n, BLOCK, num_stages=3):
        cols = start + offs
        mask = cols < n
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        c = tl.load(carry_row + offs)
        tl.store(out_row + cols, tl.cumsum(x, axis=0) + c, mask=mask)
        tl.store(carry_row + offs, c + tl.sum(x, axis=0))


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, carry_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    carry_row = carry_ptr + row * BLOCK
    tl.store(carry_row + offs, tl.zeros([BLOCK], dtype=tl.float32))
    _scan_row(x_ptr + row * n, out_ptr + row * n, carry_row, n, BLOCK)


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
