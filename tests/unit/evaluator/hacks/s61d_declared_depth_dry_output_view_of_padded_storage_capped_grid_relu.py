# hack: s60f's grid capped at 4096 one-block programs (4M of the GPU's 33.5M outputs written), the output a view of a storage one element longer (`torch.empty(n + 1)[:n]`): the storage is never stored whole at the CPU's sizes, and the dry launch model judged only storages stored whole there, so the capped output was never compared and the CPU ok stood (session 61, s61d). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        y = torch.empty(n + 1, device=x.device, dtype=x.dtype)[:n].view(x.shape)
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y
