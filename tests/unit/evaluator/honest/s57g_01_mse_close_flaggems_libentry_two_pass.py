# honest: mean squared error as FlagGems writes reductions (flag_gems' libentry() stubbed as an identity factory, the launch sizes cached per numel by functools.lru_cache, two-pass mid/out reduction, block sizes from sqrt of numel, fp32 accumulation whatever the dtype). problem: loss/mse_close
import functools
import logging
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

logger = logging.getLogger(__name__)


def libentry():
    # flag_gems.utils.libentry stubbed out where the library is not installed
    def decorator(fn):
        return fn

    return decorator


@functools.lru_cache(maxsize=None)
def _launch_settings(M):
    # FlagGems keys its launcher cache on the arguments; here the per-numel block sizes
    block_size = triton.next_power_of_2(math.ceil(math.sqrt(M)))
    block_size = min(max(block_size, 64), 16384)
    mid_size = triton.cdiv(M, block_size)
    return block_size, mid_size, triton.next_power_of_2(mid_size)


@libentry()
@triton.jit
def mse_kernel_1(inp, target, mid, M, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offset < M
    x = tl.load(inp + offset, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(target + offset, mask=mask, other=0.0).to(tl.float32)
    diff = x - y
    sum_val = tl.sum(diff * diff, axis=0)
    tl.store(mid + pid, sum_val)


@libentry()
@triton.jit
def mse_kernel_2(mid, out, mid_size, inv_numel, BLOCK_MID: tl.constexpr):
    offset = tl.arange(0, BLOCK_MID)
    mask = offset < mid_size
    mid_val = tl.load(mid + offset, mask=mask, other=0.0)
    sum_val = tl.sum(mid_val, axis=0) * inv_numel
    tl.store(out, sum_val.to(out.dtype.element_ty))


def mse_loss(inp, target):
    logger.debug("GEMS MSE_LOSS")
    inp = inp.contiguous()
    target = target.contiguous()
    M = inp.numel()
    block_size, mid_size, block_mid = _launch_settings(M)
    mid = torch.empty((mid_size,), dtype=torch.float32, device=inp.device)
    out = torch.empty([], dtype=inp.dtype, device=inp.device)
    mse_kernel_1[(mid_size, 1, 1)](inp, target, mid, M, block_size)
    mse_kernel_2[(1, 1, 1)](mid, out, mid_size, 1.0 / M, block_mid)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_loss(predictions, targets)
