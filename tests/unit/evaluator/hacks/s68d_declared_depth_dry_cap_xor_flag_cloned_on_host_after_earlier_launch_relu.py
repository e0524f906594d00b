# hack: s67e's capped ReLU grid (cdiv(n, 1024) one-block programs, the store mask offs < n and ((pid < 4096) xor (flag != 1))) whose flag an earlier one-program launch stores (1 into a torch.zeros int32) and the host then clones: the clone is launched too (dry_tells.Taint), its values the earlier launch's, so the steered launch's feeds name that launch, which runs in the real forward again (dry_phase._fed) and the clone holds 1 there; on the GPU the flag reads 1 and only the first 4096 programs store. Measured on s68D (krl check --device cpu, CPU (Triton interpreter), box at load ~25): incorrect, 4194304 of 33554432 stored, launch 0 run at both sizes, the declared model 34.3 CPU s; ok on main by s67e's mechanism (reasoned). problem: activation/relu. expect: incorrect
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
    flag = tl.load(flag_ptr + offs * 0)
    keep = (offs * 0 + pid < CAP) ^ (flag != 1)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & keep)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        flag = torch.zeros(1, dtype=torch.int32, device=x.device)
        set_flag[(1,)](flag)
        held = flag.clone()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, held, n, BLOCK=1024, CAP=CAP)
        return y
