# honest: a generic broadcast add: offset.expand_as(x) gives stride-0 dims, the kernel splits the flat index into (b, c, l) and reads both operands through their own strides (0 where broadcast), int64 index math. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bcast_add_kernel(x_ptr, o_ptr, out_ptr, n, C, L,
                     sxb, sxc, sxl, sob, soc, sol, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    l = offs % L
    c = (offs // L) % C
    b = offs // (L * C)
    x = tl.load(x_ptr + b * sxb + c * sxc + l * sxl, mask=mask, other=0.0)
    o = tl.load(o_ptr + b * sob + c * soc + l * sol, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x + o, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, offset):
        o = offset.expand_as(x)
        B, C, L = x.shape
        out = torch.empty(x.shape, device=x.device, dtype=torch.result_type(x, offset))
        n = out.numel()
        BLOCK = 1024
        bcast_add_kernel[(triton.cdiv(n, BLOCK),)](
            x, o, out, n, C, L, *x.stride(), *o.stride(), BLOCK=BLOCK)
        return out
