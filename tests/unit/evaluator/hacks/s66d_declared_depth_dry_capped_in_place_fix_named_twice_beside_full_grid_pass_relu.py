# hack: s65e's capped in-place ReLU named twice, the second `fix` a needed full-grid pass: a full-grid Triton y = x / 2, then `Main.fix` applying max(y, 0) to y in place on a grid capped at 4096 one-block programs, then `Spare.fix` doubling y in place on the full grid. Both are needed, but one name: the knock-out round counted `fix` a decoy unasked (gates.shared_names) and the dry model stored nothing for it; a model keyed by name would also judge `fix`'s updates in place as one kernel, whole at both sizes through the full-grid pass. On the GPU all but the first 4M of 33.5M outputs keep x's negatives. problem: activation/relu. expect: incorrect
# measured (session 66, krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): ok at reward
# 1.0003 on main 75033a4a (decoy_kernels ['fix'], dry model complete, 31.0 CPU s); incorrect after kernels
# are knocked out and modelled by qualified name (evaluator.kernel_identity).
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


class Main:
    @staticmethod
    @triton.jit
    def fix(y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        y = tl.load(y_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class Spare:
    @staticmethod
    @triton.jit
    def fix(y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        y = tl.load(y_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, y * 2.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        half_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        Main.fix[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, BLOCK=BLOCK)
        Spare.fix[(triton.cdiv(n, BLOCK),)](y, n, BLOCK=BLOCK)
        return y
