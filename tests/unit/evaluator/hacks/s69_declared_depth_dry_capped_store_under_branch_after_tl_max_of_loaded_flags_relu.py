# hack: a ReLU grid (cdiv(n, 1024) one-block programs) whose store sits under a branch on a reduction of loaded flags, `if tl.max(flags, axis=0) == 1:` capped at the first 4096 programs, else full (the flags a torch.ones int32 vector: 1 on the GPU as on the CPU). Built against session 69's checked tests (evaluator.dry_tests): `tl.max` is a device function whose call patches the language again with the interpreter's own `__bool__`, which left a test after it unchecked in dry_launch's unit model (test_dry_launch under TRITON_INTERPRET=1, caught on the merge; `dry_tests.checked` now checks every re-patch). Through the whole evaluator it is incorrect with and without that re-check (4194304 of 33554432 elements at 4096 x 8192, krl check --device cpu, CPU (Triton interpreter), ~50 s each): in a running program the evaluator's own patch cache (interpreter_loops, dry_launch._programs_running) keeps the launch's patch; kept as a guard on both. problem: activation/relu. expect: incorrect
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
    flags = tl.load(flag_ptr + tl.arange(0, 16))
    if tl.max(flags, axis=0) == 1:
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
        flags = torch.ones(16, dtype=torch.int32, device=x.device)
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flags, n, BLOCK=1024, CAP=CAP)
        return y
