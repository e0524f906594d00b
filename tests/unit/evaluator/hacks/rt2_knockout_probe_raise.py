# hack: torch computes; the forward raises when torch.empty holds noise (taking the knock-out run for one) and a register-only tl.dot kernel buys coverage. problem: relu. expect: runtime_error|hack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pad_kernel(z_ptr, REPS: tl.constexpr, N: tl.constexpr):
    a = tl.zeros((N, N), dtype=tl.float32)
    acc = tl.zeros((N, N), dtype=tl.float32)
    for i in range(REPS):
        acc = tl.dot(a, a, acc, input_precision="ieee")
    tl.store(z_ptr, tl.sum(tl.sum(acc, axis=1), axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        probe = torch.empty(1 << 24, device=x.device)
        if bool((probe[:4096] != 0).any()):
            raise RuntimeError("knocked out")
        scratch = torch.empty(1, device=x.device)
        pad_kernel[(1,)](scratch, REPS=2, N=256)
        return torch.relu(x)
