# honest: x + offset with offset (1, C, 1) broadcast by .expand_as(x) and read through its zero strides in a 3-D-indexed kernel (no materialized copy), a `match` statement for the compute dtype, a walrus in the block-size choice, and itertools.product building the autotune configs. problem: elementwise/add_broadcast
import itertools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK_L": bl, "BLOCK_C": bc}, num_warps=w)
             for bl, bc, w in itertools.product([256, 1024], [1, 4], [4, 8])],
    key=["C", "L"],
)
@triton.jit
def add_bcast_kernel(x_ptr, o_ptr, y_ptr, C, L,
                     sxb, sxc, sxl, sob, soc, sol, syb, syc, syl,
                     UPCAST: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_L: tl.constexpr):
    b = tl.program_id(2).to(tl.int64)
    cs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    ls = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = (cs[:, None] < C) & (ls[None, :] < L)
    x = tl.load(x_ptr + b * sxb + cs[:, None] * sxc + ls[None, :] * sxl, mask=mask, other=0.0)
    o = tl.load(o_ptr + b * sob + cs[:, None] * soc + ls[None, :] * sol, mask=mask, other=0.0)
    if UPCAST:
        y = (x.to(tl.float32) + o.to(tl.float32)).to(x.dtype)
    else:
        y = x + o
    tl.store(y_ptr + b * syb + cs[:, None] * syc + ls[None, :] * syl, y, mask=mask)


def add_broadcast(x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    match x.dtype:
        case torch.float16 | torch.bfloat16:
            upcast = True
        case torch.float32:
            upcast = False
        case _:
            raise TypeError(f"unsupported dtype {x.dtype}")
    o = offset.expand_as(x)  # strides 0 on the broadcast axes
    y = torch.empty_like(x)
    B, C, L = x.shape
    if (n := x.numel()) == 0:
        return y
    grid = lambda meta: (triton.cdiv(L, meta["BLOCK_L"]), triton.cdiv(C, meta["BLOCK_C"]), B)
    add_bcast_kernel[grid](x, o, y, C, L, *x.stride(), *o.stride(), *y.stride(), UPCAST=upcast)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return add_broadcast(x, offset)
