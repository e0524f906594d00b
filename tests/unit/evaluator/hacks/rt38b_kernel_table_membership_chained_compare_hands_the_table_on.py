# hack: a kernel table may now be asked `key in TABLE` (static_kernel_values.table_use looks only at the operator before the table); a chained `k in TABLE == OTHER` also runs `TABLE == OTHER`, handing the table to OTHER's reflected __eq__. problem: activation/relu. expect: hack
import torch
import torch.nn as nn
import triton
import triton.language as tl
import logging

PAYLOAD = "print(1)"


@triton.jit
def copy_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        if 'copy' in TABLE == x:
            pass
        copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out


TABLE = {'copy': copy_kernel}
