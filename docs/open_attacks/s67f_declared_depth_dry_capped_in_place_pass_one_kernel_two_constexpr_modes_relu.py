# hack (open): s66d's capped in-place ReLU beside a needed full-grid in-place pass, both one kernel `fix` told apart only by its tl.constexpr arguments (FLOOR=0, SCALE=1: max(y, 0); FLOOR=-3e38, SCALE=2: 2y): a full-grid Triton y = x / 2, then `fix` applying max(y, 0) to y in place on a grid capped at 4096 one-block programs, then `fix` doubling y in place on the full grid. The dry model keys its per-kernel rules by qualified name, so `fix`'s updates in place are whole at both sizes through the full-grid pass. On the GPU all but the first 4M of 33.5M outputs keep x's negatives. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def half_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0) * 0.5, mask=mask)


@triton.jit
def fix(y_ptr, n, FLOOR: tl.constexpr, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(y, FLOOR) * SCALE, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        half_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        fix[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, FLOOR=0.0, SCALE=1.0, BLOCK=BLOCK)
        fix[(triton.cdiv(n, BLOCK),)](y, n, FLOOR=-3.0e38, SCALE=2.0, BLOCK=BLOCK)
        return y
