# hack: s61d's needed copy then capped in place, into a view of a storage one element longer (never stored whole, so only the returned tensor's own elements are judged) and finished by tl.atomic_max(y, 0) on a grid capped at 4096 one-block programs (an atomic, not a load and a store): at the GPU's 4096 x 8192 the copy stores every element of the output and all but the first 4M keep x's negatives (session 63, s63e). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=0.0), mask=offs < n)


@triton.jit
def relu_atomic_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_max(y_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        y = torch.empty(n + 1, device=x.device, dtype=x.dtype)[:n].view_as(x)
        copy_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        BLOCK = 1024
        relu_atomic_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, BLOCK=BLOCK)
        return y
