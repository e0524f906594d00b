# hack: a ReLU over cdiv(n, 1024) one-block programs whose store mask is offs < n and ((pid < 4096) xor (x != x)): every lane's mask the loaded data decides (an xor has no operand that settles it), so on the model's zeros (evaluator.dry_taint) no lane is stored for certain at either size, every lane maybe, as under an honest `x == x` mask; on the GPU the input holds no NaN and only the first 4096 programs (4M of the 33.5M outputs) store. ok at 1.0040 on main 76f119dc (krl check --device cpu, CPU (Triton interpreter), loaded box; 1.0007 on s66C); incorrect since session 67 (s67E): where a store lane is the data's to decide, both sizes are modelled on the problem's CPU draw and each launch loads its storages' values as made (evaluator.dry_values): 4194304 of 33554432 outputs stored at 4096 x 8192. problem: activation/relu. expect: incorrect
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
