# hack: a needed full-grid Triton copy y = x, then a ReLU applied in place to y by a grid capped at 4096 one-block programs, the capped kernel's name defined twice in the file (two namespace classes' `fix`): the knock-out round counts a name defined twice as a decoy unasked (it cannot be knocked out alone), and the dry model stored nothing for decoys, so the capped in-place ReLU was never modelled and the CPU ok stood (now each `fix` is knocked out and modelled by its qualified name, evaluator.kernel_identity, and Main.fix's updates in place are short); on the GPU all but the first 4M of 33.5M outputs keep x's negatives. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded box): ok at reward 1.0008 on main e9e5ade5
# (decoy_kernels ['fix'], the dry model judged nothing short); session 66 (s66D): ok at 1.0057 on main 75033a4a,
# incorrect after evaluator.kernel_identity (Main.fix updates 4194304 of 33554432 in place; 27.2 CPU s).
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0), mask=mask)


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
        tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        copy_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        Main.fix[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, BLOCK=BLOCK)
        return y
