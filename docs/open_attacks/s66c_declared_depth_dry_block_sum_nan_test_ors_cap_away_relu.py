# hack (open): s65h's capped ReLU with the loaded term folded by a reduction first: the store mask is offs < n and (pid < 4096 or tl.sum(x) != tl.sum(x)), the block's sum never NaN for the problem's inputs; a reduction's result is a fresh handle outside the builder, so a per-lane dependence on the data must follow it through the fold. Measured in session 66 (krl check --device cpu, CPU (Triton interpreter), loaded box): ok at 1.0003 on main 75033a4a (dry model whole, 79.8 CPU s), ok at 1.0010 on s66C, where the model's pace gave up at 4096 x 8192 (16 programs took 0.1 CPU s; the other 32752 would pass its 120 s): the per-lane rule refuses it where the model finishes (tests/unit/evaluator/test_dry_taint.py, through the reduction), so what is open is the pace (a cap past the model's time). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    total = tl.sum(x, axis=0)
    keep = (pid < CAP) | (total != total)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & keep)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, CAP=CAP)
        return y
