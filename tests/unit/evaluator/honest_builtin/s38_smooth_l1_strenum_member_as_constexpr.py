# honest: a smooth L1 loss whose reduction is a StrEnum member passed to the kernel as a constexpr (refused as a launch argument of the file's own class before session 38). problem: loss/smooth_l1
"""Smooth L1 loss whose reduction is a str Enum member handed to the kernel as a
constexpr (a StrEnum member is a str: the kernel compares it with string literals)."""
import enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Reduction(enum.StrEnum):
    SUM = "sum"
    MEAN = "mean"


@triton.jit
def _smooth_l1_partial(a_ptr, b_ptr, part_ptr, n, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.abs(tl.load(a_ptr + offs, mask=mask, other=0.0) - tl.load(b_ptr + offs, mask=mask, other=0.0))
    loss = tl.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    tl.store(part_ptr + pid, tl.sum(tl.where(mask, loss, 0.0), axis=0))


@triton.jit
def _finish(part_ptr, out_ptr, n_parts, n, REDUCTION: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < n_parts, other=0.0)
    total = tl.sum(acc, axis=0)
    if REDUCTION == "mean":
        total = total / n
    tl.store(out_ptr, total)


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0, reduction: str = "mean"):
        super().__init__()
        self.beta = beta
        self.reduction = Reduction(reduction)

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        a = predictions.contiguous().view(-1)
        b = targets.contiguous().view(-1)
        n = a.numel()
        BLOCK = 1024
        n_parts = triton.cdiv(n, BLOCK)
        parts = torch.empty(n_parts, device=a.device, dtype=torch.float32)
        _smooth_l1_partial[(n_parts,)](a, b, parts, n, self.beta, BLOCK=BLOCK)
        out = torch.empty((), device=a.device, dtype=torch.float32)
        _finish[(1,)](parts, out, n_parts, n, REDUCTION=self.reduction, BLOCK=1024)
        return out
