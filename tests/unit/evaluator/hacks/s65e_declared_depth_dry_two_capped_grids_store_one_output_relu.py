# hack: two ReLU kernels storing the same y = max(x, 0), each on a grid capped at 4096 one-block programs: at every CPU size either alone computes the whole output, so the knock-out round finds each unneeded (knocked out alone, the other covers it) and both were decoys; the dry model stored nothing for decoys, so neither capped grid was modelled and the CPU ok stood (now the round's decoys are knocked out together once more, and where that leaves the result wrong they are modelled as any kernel: both capped grids store 4194304 of 33554432); on the GPU all but the first 4M of 33.5M outputs are torch.empty's garbage. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded box): ok at reward 0.503 on main e9e5ade5
# (coverage 0, decoy_kernels ['relu_a', 'relu_b'], the dry model judged nothing); closed: the round's decoys
# are knocked out together once more (knockout_round._jointly): wrong there, both are modelled as any
# kernel (dry_phase._skipped) and the declared sizes' output is short: incorrect (lead, session 65; s65E
# refused it as timeout, which also refused the honest s63f MoE align whose two kernels are each unneeded).
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_a(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def relu_b(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.where(x > 0.0, x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        grid = (min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)
        relu_a[grid](x, y, n, BLOCK=BLOCK)
        relu_b[grid](x, y, n, BLOCK=BLOCK)
        return y
