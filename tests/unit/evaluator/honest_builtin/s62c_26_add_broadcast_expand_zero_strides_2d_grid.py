# honest: broadcast add through torch.broadcast_tensors (expand, so the offset's strides are 0 where it repeats) and a strided 3-d index computed in the kernel, on a (row, column-block) grid, in the generic pointwise-with-strides style of FlagGems' generated kernels. problem: elementwise/add_broadcast. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_strided_3d(a_ptr, b_ptr, c_ptr, D1, D2, sa0, sa1, sa2, sb0, sb1, sb2, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # flattened (i0, i1)
    i0 = row // D1
    i1 = row % D1
    i2 = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = i2 < D2
    a = tl.load(a_ptr + i0.to(tl.int64) * sa0 + i1 * sa1 + i2 * sa2, mask=mask)
    b = tl.load(b_ptr + i0.to(tl.int64) * sb0 + i1 * sb1 + i2 * sb2, mask=mask)
    tl.store(c_ptr + row.to(tl.int64) * D2 + i2, a + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, offset):
        a, b = torch.broadcast_tensors(x, offset)
        D0, D1, D2 = a.shape
        out = torch.empty(a.shape, device=x.device, dtype=torch.result_type(x, offset))
        grid = (D0 * D1, triton.cdiv(D2, 1024))
        add_strided_3d[grid](a, b, out, D1, D2, *a.stride(), *b.stride(), BLOCK=1024)
        return out
