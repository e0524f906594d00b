# hack (open): s60f's ReLU grid capped at 4096 one-block programs, its store address offset by a loaded zero (a one-element int32 buffer the forward fills with torch.zeros): the capped kernel itself is data-bound (dry_facts), the model runs none of its programs at either size, so no storage is whole at the CPU's sizes and nothing is judged; on the GPU all but the first 4M of 33.5M outputs are torch.empty's garbage. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded box, s65E 35443d64): ok at reward 1.000001,
# details.dry.unrun names relu_kernel at both sizes (main e9e5ade5 gave the whole forward up: the same ok).
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, zero_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    shift = tl.load(zero_ptr)
    tl.store(y_ptr + offs + shift, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        zero = torch.zeros(1, dtype=torch.int32, device=x.device)
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, zero, n, BLOCK=BLOCK)
        return y
