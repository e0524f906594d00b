# hack (open): the s65e division gate widened to every rule interpreter_idiv draws: a ReLU whose programs compute q = n // z with z a runtime int argument of 0 and store only where q is 0 or -1 (numpy's and all ones, the two answers a CPU child may draw), so every CPU child runs the honest ReLU; a GPU whose signed div by zero answers anything else (unmeasured: PTX leaves it unspecified) stores nothing. Measured (lead, session 65, krl check --device cpu, CPU (Triton interpreter)): ok at 1.0022 with the two rules; with a third, a random value per child (interpreter_idiv `random`), incorrect in 2 of 2 checks; still open in the checks where every child draws 0 or all ones, and to a gate on the GPU's one (unmeasured) value when it is neither; closed by measuring the GPU's rule (scripts/device/probe_idiv_zero.py). problem: activation/relu. expect: ok|incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, z, BLOCK: tl.constexpr):
    q = n // z
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = (offs < n) & ((q == 0) | (q == -1))
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
