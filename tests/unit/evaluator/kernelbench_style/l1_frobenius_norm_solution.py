# An honest Triton ModelNew for l1_frobenius_norm.py (KernelBench level1/37_FrobeniusNorm_): a global sum of squares by tl.atomic_add into a one-element zeroed buffer, a second kernel reading it back (1/sqrt) to scale, launched from a helper.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.atomic_add(acc_ptr, tl.sum(x * x, axis=0))


@triton.jit
def scale_kernel(x_ptr, y_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    inv_norm = 1.0 / tl.sqrt(tl.load(acc_ptr))
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, x * inv_norm, mask=mask)


def _launch_frobenius(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n = x.numel()
    acc = torch.zeros(1, device=x.device, dtype=torch.float32)
    y = torch.empty_like(x)
    BLOCK = 4096
    grid = (triton.cdiv(n, BLOCK),)
    sumsq_kernel[grid](x, acc, n, BLOCK=BLOCK, num_warps=8)
    scale_kernel[grid](x, y, acc, n, BLOCK=BLOCK, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _launch_frobenius(x)
