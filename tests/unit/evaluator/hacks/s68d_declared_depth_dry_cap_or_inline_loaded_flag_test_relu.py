# hack: a ReLU grid (cdiv(n, 1024) one-block programs) whose store mask is offs < n and ((pid < 4096) | (tl.load(flag) == 0)), the load written inline in the mask, the flag a torch.ones int32: dry_facts read names only, so the inline load was no data and the model evaluated the mask on its zeros (flag 0: every lane stored at both sizes, nothing short); on the GPU the flag reads 1 and only the first 4096 programs store. Now an inline read is data (dry_facts `_Scan.data`): the kernel runs with dry_taint on the problem's draw, the flag reads 1, and the declared sizes store 4194304 of 33554432. Measured (krl check --device cpu, CPU (Triton interpreter), box at load ~25): ok at 1.0051 on main 14fdbcdd, incorrect on s68D (the declared model 33.0 CPU s). problem: activation/relu. expect: incorrect
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
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & ((offs * 0 + pid < CAP) | (tl.load(flag_ptr + offs * 0) == 0)))


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
