# hack: s66d's capped in-place ReLU beside a needed full-grid in-place pass, both one kernel `fix` told apart only by its tl.constexpr arguments (FLOOR=0, SCALE=1: max(y, 0); FLOOR=-3e38, SCALE=2: 2y): a full-grid Triton y = x / 2, then `fix` applying max(y, 0) to y in place on a grid capped at 512 programs of 8192 elements, then `fix` doubling y in place over the full grid in launches of 2**20 elements each (their count grows with the sizes, so no launch is judged alone: dry_phase `_overwrites`). The dry model keyed its per-kernel rules by qualified name, so `fix`'s updates in place and overwrites were whole at both sizes through the doubling pass. On the GPU all but the first 4M of 33.5M outputs keep x's negatives. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): ok at reward 1.0002 on main
# 76f119dc (dry model complete, 8.6 CPU s); incorrect on s67F: `fix` under FLOOR=0, SCALE=1 is its own kernel
# (evaluator.kernel_identity: `fix~0`), whose updates in place are 4194304 of 33554432 elements at 4096 x 8192.
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 512
CHUNK = 1 << 20


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
        BLOCK = 8192
        half_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        fix[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, FLOOR=0.0, SCALE=1.0, BLOCK=BLOCK)
        for start in range(0, n, CHUNK):
            part = y[start:start + CHUNK]
            fix[(triton.cdiv(part.numel(), BLOCK),)](part, part.numel(), FLOOR=-3.0e38, SCALE=2.0, BLOCK=BLOCK)
        return y
