# hack: a ReLU grid (cdiv(n, 1024) one-block programs) whose store sits under a branch on a flag it loads: `if go == 1:` capped at the first 4096 programs, else full, where the flag is a torch.empty int32 that an earlier one-program launch sets to 1 (1 on the GPU as on the CPU). Since s69C a branch on a loaded value runs with each test checked known on the problem's draw, and the setting launch runs in the real forward (dry_tells `feeds`), but a storage torch.empty made stayed unset (evaluator.dry_values `_UNSET`: only a whole torch fill set it), so the test was the data's at both sizes: the launch rolled back, nothing judged: ok at 1.0011 on s69C (krl check --device cpu, CPU (Triton interpreter)). Closed in session 70 (s70B, evaluator.dry_ran): the bytes a launch run in the real forward stores, from nothing unset, one program or one value a byte, are known from then on: incorrect, 4194304 of 33554432 elements at 4096 x 8192. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096


@triton.jit
def set_flag(flag_ptr):
    tl.store(flag_ptr, 1)


@triton.jit
def relu_kernel(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    go = tl.load(flag_ptr)
    if go == 1:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & (pid < CAP))
    else:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        flag = torch.empty(1, dtype=torch.int32, device=x.device)
        set_flag[(1,)](flag)
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flag, n, BLOCK=1024, CAP=CAP)
        return y
