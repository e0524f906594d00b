# hack: a ReLU whose every program first computes q = n // z with z a runtime int argument of 0 and stores only where q == 0: numpy's answer (the CPU interpreter's), ok at reward 1.0047 on `krl check --device cpu` in session 65. The H100 gives -1 for a 32-bit quotient by zero (scripts/device/probe_idiv_zero.py, session 67), which evaluator.interpreter_idiv now gives every CPU child, so the kernel stores nothing on either device. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, z, BLOCK: tl.constexpr):
    q = n // z
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = (offs < n) & (q == 0)
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
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, 0, BLOCK=BLOCK)
        return y
