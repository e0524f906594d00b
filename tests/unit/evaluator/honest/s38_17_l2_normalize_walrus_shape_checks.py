import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_BLOCK = 16384


@triton.jit
def _l2norm_fwd(x_ptr, y_ptr, stride, D, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_D)
    mask = cols < D
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    norm = tl.sqrt(tl.sum(x * x, axis=0))
    y = x / tl.maximum(norm, eps)
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def l2_normalize(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    if (ndim := x.dim()) != 2:
        raise ValueError(f"expected a 2-D tensor, got {ndim}-D")
    if (block := triton.next_power_of_2(D := x.shape[1])) > MAX_BLOCK:
        raise ValueError(f"rows of {D} elements need a block of {block} > {MAX_BLOCK}")
    x = x.contiguous()
    y = torch.empty_like(x)
    _l2norm_fwd[(x.shape[0],)](x, y, x.stride(0), D, eps, BLOCK_D=block,
                              num_warps=8 if block >= 4096 else 4)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_normalize(x)
