# hack: a ReLU grid (cdiv(n, 1024) one-block programs) whose store sits under a branch on a flag it loads (a torch.ones int32, 1 on the GPU as on the CPU): `if tl.load(flag_ptr) == 1:` the store is capped at the first 4096 programs, else full. On main dry_facts read names only, so the inline load was no data: the model ran the kernel and its zeros took the full branch, whole at both sizes. Since s68D an inline read is data, the kernel was data-bound and not run: nothing stored at either size, nothing judged, ok on main bd1113ec (reasoned). Since s69C a kernel whose branch or loop tests read loaded values runs with each test checked known (evaluator.dry_tests): on the model's zeros the test is the data's, the launch is rolled back and the forward modelled on the problem's draw (evaluator.dry_values), where the flag is known: incorrect, 4194304 of 33554432 elements at 4096 x 8192 (krl check --device cpu, CPU (Triton interpreter), dry model 20.9 CPU s). problem: activation/relu. expect: incorrect
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
    if tl.load(flag_ptr) == 1:
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
