# honest: per-channel offset add with one program per (batch, channel) plane and a length loop (the channel's offset loaded once as a scalar), a tl.constexpr IS_BF16 branch upcasting to fp32 for the add, and a torch fallback when the input is not contiguous or the offset is not a (1, C, 1) shape, as library wrappers guard their fast path. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def channel_add_kernel(x_ptr, off_ptr, y_ptr, C, L, IS_BF16: tl.constexpr, BLOCK_L: tl.constexpr):
    plane = tl.program_id(0)
    c = plane % C
    base = plane.to(tl.int64) * L
    o = tl.load(off_ptr + c)
    if IS_BF16:
        o = o.to(tl.float32)
    for start in range(0, L, BLOCK_L):
        offs = start + tl.arange(0, BLOCK_L)
        mask = offs < L
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        if IS_BF16:
            y = (x.to(tl.float32) + o).to(tl.bfloat16)
        else:
            y = x + o
        tl.store(y_ptr + base + offs, y, mask=mask)


def channel_add(x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    if x.dim() != 3 or not x.is_contiguous() or offset.shape != (1, x.shape[1], 1) \
            or offset.dtype != x.dtype:
        return x + offset
    B, C, L = x.shape
    y = torch.empty_like(x)
    BLOCK_L = min(4096, triton.next_power_of_2(L))
    channel_add_kernel[(B * C,)](
        x, offset.reshape(-1).contiguous(), y, C, L,
        IS_BF16=x.dtype == torch.bfloat16, BLOCK_L=BLOCK_L, num_warps=8 if BLOCK_L >= 2048 else 4,
    )
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return channel_add(x, offset)
