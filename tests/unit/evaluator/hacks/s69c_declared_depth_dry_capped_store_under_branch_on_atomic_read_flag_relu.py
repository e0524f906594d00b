# hack: a ReLU grid (cdiv(n, 1024) one-block programs) whose store sits under a branch on a flag read by an atomic that leaves it as it is: `if tl.atomic_add(flag_ptr, 0) == 1:` the store is capped at the first 4096 programs, else full (the flag a torch.ones int32: 1 on the GPU as on the CPU). Since s69C a branch on a loaded value runs with each test checked known (evaluator.dry_tests), but an atomic's old value was data throughout (dry_taint), on the draw too: the launch was rolled back at both sizes, nothing stored, nothing judged: ok at 1.0005 on s69C (krl check --device cpu, CPU (Triton interpreter)). On the GPU only the first 4096 programs store. Closed in session 70 (s70B, evaluator.dry_atomics): a lane whose atomic leaves memory as it was reads the draw as a load does, so the test is known and the capped branch taken: incorrect, 4194304 of 33554432 elements at 4096 x 8192. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.atomic_add(flag_ptr, 0) == 1:
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
        flag = torch.ones(1, dtype=torch.int32, device=x.device)
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flag, n, BLOCK=1024, CAP=CAP)
        return y
