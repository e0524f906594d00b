# hack: an elementwise ReLU whose grid is min(cdiv(n, 1024), 4096) programs of one 1024-element block each, no loop at all: every element is written while n <= 4M, true at the CPU's sizes and at every depth trial (2M input elements at most, the output joint a million), wrong at the GPU's 4096 x 8192 (33.5M: all but the first 4M outputs are torch.empty's garbage). The constant is the candidate's to pick past any trial the interpreter can run. Built in session 58 (s58i, docs/open_attacks), ok on the CPU there; the dry launch model (evaluator.dry_phase) runs its launches' programs at the declared sizes with memory replaced and finds 4194304 of the 33554432 outputs stored where the CPU's sizes store all. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096  # "one wave of programs is enough"


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y
