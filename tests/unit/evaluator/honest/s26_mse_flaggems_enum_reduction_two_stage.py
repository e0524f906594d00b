# honest: FlagGems' MSE loss (src/flag_gems/ops/mse_loss.py): a Reduction(Enum) whose .value goes in as a positional constexpr, the compute dtype chosen in the kernel by `tl.constexpr(inp.dtype.element_ty == tl.float16)`, a tle-style int64 program_id helper, a two-stage sum (sqrt(M)-sized blocks into a mid buffer, then one program), grids written (n, 1, 1), a 0-dim torch.empty([]) output, both launches inside `with torch.cuda.device(inp.device)`. problem: loss/mse
import logging
import math
from enum import Enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def program_id(axis: tl.constexpr) -> tl.tensor:
    return tl.program_id(axis).to(tl.int64)


@triton.jit
def kernel_1(inp, target, mid, M, BLOCK_SIZE: tl.constexpr, reduction: tl.constexpr):
    if tl.constexpr(inp.dtype.element_ty == tl.float16) or tl.constexpr(inp.dtype.element_ty == tl.bfloat16):
        cdtype = tl.float32
    else:
        cdtype = inp.dtype.element_ty

    pid = program_id(0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < M
    inp_val = tl.load(inp + offset, mask=mask, other=0).to(cdtype)
    target_val = tl.load(target + offset, mask=mask, other=0).to(cdtype)
    sub = inp_val - target_val
    pow_val = sub * sub
    # Reduction.MEAN.value: 1, Reduction.SUM.value: 2
    if reduction == 1:
        sum_val = tl.sum(pow_val) / M
    else:
        sum_val = tl.sum(pow_val)
    tl.store(mid + pid, sum_val)


@triton.jit
def kernel_2(mid, out, mid_size, BLOCK_MID: tl.constexpr):
    if tl.constexpr(mid.dtype.element_ty == tl.float16) or tl.constexpr(mid.dtype.element_ty == tl.bfloat16):
        cdtype = tl.float32
    else:
        cdtype = mid.dtype.element_ty
    offset = tl.arange(0, BLOCK_MID)
    mid_val = tl.load(mid + offset, mask=offset < mid_size, other=0).to(cdtype)
    tl.store(out, tl.sum(mid_val))


class Reduction(Enum):
    NONE = 0
    MEAN = 1
    SUM = 2


def mse_loss(inp, target, reduction=Reduction.MEAN.value):
    logging.debug("GEMS MSE LOSS")
    M = inp.numel()
    dtype = inp.dtype
    block_size = triton.next_power_of_2(math.ceil(math.sqrt(M)))
    mid_size = triton.cdiv(M, block_size)
    block_mid = triton.next_power_of_2(mid_size)

    mid = torch.empty((mid_size,), dtype=dtype, device=inp.device)
    out = torch.empty([], dtype=dtype, device=inp.device)
    with torch.cuda.device(inp.device):
        kernel_1[(mid_size, 1, 1)](inp, target, mid, M, block_size, reduction)
        kernel_2[(1, 1, 1)](mid, out, mid_size, block_mid)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_loss(predictions.contiguous(), targets.contiguous())
