# hack: s60f's grid capped at 4096 one-block programs (4M of the GPU's 33.5M outputs written), each program also storing one flag into a scratch buffer of 5 x numel floats (670 MB at the GPU's sizes, a cached allocation; 80K floats at the CPU's): past 2**27 elements the dry launch model gave up on the whole forward ("a storage of N elements"), so the capped output had no model and the CPU ok stood (session 61, s61d). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)
    tl.store(flag_ptr + pid, 1.0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        scratch = torch.empty(5 * n, device=x.device, dtype=x.dtype)
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, scratch, n, BLOCK=BLOCK)
        return y
