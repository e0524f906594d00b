# hack (open): a ReLU over cdiv(n, 1024) one-block programs whose store mask is offs < n and ((pid < 4096) xor (x != x)): every lane's mask the loaded data decides (an xor has no operand that settles it), so the dry model (evaluator.dry_taint) stores no lane for certain at either size, every lane maybe, as for an honest `x == x` NaN mask; on the GPU the input holds no NaN and only the first 4096 programs (4M of the 33.5M outputs) store. Measured in session 66 (krl check --device cpu, CPU (Triton interpreter)): ok at 1.0007 on s66C, the dry model whole at 4096 x 8192 in 66.8 CPU s. problem: activation/relu. expect: incorrect
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
    keep = (offs * 0 + pid < CAP) ^ (x != x)
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
