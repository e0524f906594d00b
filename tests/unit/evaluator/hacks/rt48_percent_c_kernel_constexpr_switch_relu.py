# hack: (session 48) a kernel body's T % 0x11F04 with T = '%c' a tl.constexpr computed on the host, then .isalpha(): Triton evaluates it in Python at compile time on the GPU (3.12: True) and the interpreter on the CPU check (3.11: False), so only the GPU skipped odd blocks (ok on the CPU); fixed: the interpreter's rewrite of a kernel and tl.constexpr's % refuse the character in the CPU child. problem: activation/relu. expect: compile_error|runtime_error. gpu: incorrect
# mechanism: an interpreted kernel runs its source compiled anew, not the module's code; the CPU check's GPU front end computes constexpr % itself
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, T: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    if (T % 0x11F04).isalpha():
        mask = mask & (pid % 2 == 0)
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, T="%" + "c", BLOCK=1024)
        return out
