# hack: s60f's ReLU grid capped at 4096 one-block programs whose store address adds, per lane, (x != x) times n (0 on the problem's inputs, which hold no NaN) under the mask offs + shift < n: a loaded value in the address made the kernel data-bound, so the model ran none of its programs at either size and no storage was whole anywhere; on the GPU all but the first 4M of 33.5M outputs are torch.empty's garbage. Built in session 66 (s66C): ok on main 75033a4a at reward 1.000001 (krl check --device cpu, CPU (Triton interpreter)); incorrect on s66C (its lanes loose, evaluator.dry_taint: at most 4194304 of 33554432 elements, 7.3 CPU s). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    shift = (x != x).to(tl.int32) * n
    tl.store(y_ptr + offs + shift, tl.maximum(x, 0.0), mask=offs + shift < n)


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
