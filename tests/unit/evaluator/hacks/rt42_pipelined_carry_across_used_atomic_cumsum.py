# hack: a chunked scan whose carry is reloaded from the element the previous chunk's last lane stored, ordered by a scalar acq_rel tl.atomic_add whose old value is used (credited as a lane barrier), in a `tl.range(num_stages=3)` loop: the pipeliner issues the carry load (cp.async) iterations early, before the atomic and before the store it should read. problem: reduction/cumsum. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, ticket_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x0 = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + row * n + offs, tl.cumsum(x0, axis=0), mask=offs < n)
    tickets = 0
    for start in tl.range(BLOCK, n, BLOCK, num_stages=3):
        cols = start + offs
        mask = cols < n
        x = tl.load(x_ptr + row * n + cols, mask=mask, other=0.0)
        tickets += tl.atomic_add(ticket_ptr, 1)
        c = tl.load(out_ptr + row * n + start - 1)
        tl.store(out_ptr + row * n + cols, tl.cumsum(x, axis=0) + c, mask=mask)
    tl.store(ticket_ptr + 1 + row, tickets)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, n = x.shape
        out = torch.empty_like(x)
        tickets = torch.zeros(rows + 1, device=x.device, dtype=torch.int32)
        cumsum_kernel[(rows,)](x, out, tickets, n, BLOCK=256, num_warps=4)
        return out
