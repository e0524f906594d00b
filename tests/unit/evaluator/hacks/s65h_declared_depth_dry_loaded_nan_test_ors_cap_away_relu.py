# hack: a ReLU over cdiv(n, 1024) one-block programs whose store mask is offs < n and (pid < 4096 or x != x), x the loaded input: the dry launch model took a mask a loaded value reaches maskless (an upper bound), so every lane stored at both sizes and the cap was never seen; on the GPU the input holds no NaN and only the first 4096 programs (4M of the 33.5M outputs) store. Built in session 65 (s65H); ok on main 75033a4a at reward 1.0011 (krl check --device cpu, CPU (Triton interpreter), dry model whole at 4096 x 8192 in 36.1 CPU s); incorrect on s66C (evaluator.dry_taint: 4194304 of 33554432 outputs stored for certain, 62.8 CPU s). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096  # "one wave of programs is enough"


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    mask = (offs < n) & ((pid < CAP) | (x != x))
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024, CAP=CAP)
        return y
