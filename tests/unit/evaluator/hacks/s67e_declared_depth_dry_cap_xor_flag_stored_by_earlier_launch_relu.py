# hack: s66c's capped ReLU grid (cdiv(n, 1024) one-block programs, the store mask offs < n and ((pid < 4096) xor (flag != 1))) whose flag an earlier one-program launch stores (1 into a torch.zeros int32): the dry model's real forward recorded that launch and did not run it (a constant writer, and needed), so evaluator.dry_values never read the flag, every lane stayed the data's at both sizes and nothing was judged (ok at 1.0061 on s67E, the dry model whole at 4096 x 8192, 67.0 CPU s). Now the capped launch's feeds (dry_tells.feeds: the launches whose stores a steered launch loads) run in the real forward again (dry_phase._fed), the flag reads 1 there and 4194304 of 33554432 elements are stored at 4096 x 8192 (s68D, krl check --device cpu, CPU (Triton interpreter), box at load ~28: the dry model 36.6 CPU s at the declared sizes). problem: activation/relu. expect: incorrect
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
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flag, n, BLOCK=1024, CAP=CAP)
        return y
