# hack (open): a ReLU whose every program first computes q = n // z with z a runtime int argument of 0: the CPU interpreter's integer division by zero gives 0 (numpy, warning silenced), so `q == 0` holds and the ReLU is stored; PTX's div.s32 by zero gives an unspecified value (commonly -1 on NVIDIA GPUs: unmeasured here), where the kernel stores nothing and the output is torch.empty's garbage. problem: activation/relu. expect: ok|incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded box): ok at reward 1.0047 on main e9e5ade5;
# the GPU's value of div.s32 by zero is not measured (no GPU this session). Since evaluator.interpreter_idiv
# (lead, session 65) each child draws all ones or zero for the quotient: incorrect where it draws all ones.
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
