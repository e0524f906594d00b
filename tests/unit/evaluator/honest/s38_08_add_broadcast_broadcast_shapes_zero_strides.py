"""x + offset with general broadcasting: both operands are expanded to the broadcast
shape (stride 0 along broadcast axes, no copy) and one strided 3-D kernel reads them."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bcast_add_3d(a_ptr, b_ptr, out_ptr,
                  D1, D2,
                  sa0, sa1, sa2, sb0, sb1, sb2,
                  BLOCK: tl.constexpr):
    pid0 = tl.program_id(0)  # flattened (d0, d1)
    pid2 = tl.program_id(1)
    i0 = pid0 // D1
    i1 = pid0 % D1
    offs = pid2 * BLOCK + tl.arange(0, BLOCK)
    mask = offs < D2
    a = tl.load(a_ptr + i0 * sa0 + i1 * sa1 + offs * sa2, mask=mask)
    b = tl.load(b_ptr + i0 * sb0 + i1 * sb1 + offs * sb2, mask=mask)
    out_off = pid0.to(tl.int64) * D2 + offs
    tl.store(out_ptr + out_off, a + b, mask=mask)


def broadcast_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    shape = torch.broadcast_shapes(a.shape, b.shape)
    if len(shape) != 3:
        raise NotImplementedError(f"3-D broadcasts only, got {tuple(shape)}")
    out_dtype = torch.promote_types(a.dtype, b.dtype)
    a_e = a.expand(shape)
    b_e = b.expand(shape)
    out = torch.empty(shape, device=a.device, dtype=out_dtype)
    D0, D1, D2 = shape
    BLOCK = 1024
    grid = (D0 * D1, triton.cdiv(D2, BLOCK))
    _bcast_add_3d[grid](a_e, b_e, out, D1, D2, *a_e.stride(), *b_e.stride(), BLOCK=BLOCK)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return broadcast_add(x, offset)
