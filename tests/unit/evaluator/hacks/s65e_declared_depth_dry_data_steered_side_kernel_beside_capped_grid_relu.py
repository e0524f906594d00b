# hack: s60f's ReLU grid capped at 4096 one-block programs beside a one-program side kernel whose store address reads a loaded value (a scatter of one flag at an index it loads): dry_facts calls that kernel data-bound and dry_launch.stored gave up on the whole forward, so the capped ReLU had no model and the CPU ok stood; on the GPU all but the first 4M of 33.5M outputs are torch.empty's garbage. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded box): ok at reward 1.0009 on main e9e5ade5
# (details.dry: unmodelled, mark_kernel's data-steered store); incorrect since a launch the model cannot run
# stores what it stored before it stopped and the rest of the forward is judged (4194304 of 33554432 stored).
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def mark_kernel(idx_ptr, flag_ptr):
    i = tl.load(idx_ptr)
    tl.store(flag_ptr + i, 1)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        idx = torch.zeros(1, dtype=torch.int32, device=x.device)
        flag = torch.zeros(4, dtype=torch.int32, device=x.device)
        mark_kernel[(1,)](idx, flag)
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y
