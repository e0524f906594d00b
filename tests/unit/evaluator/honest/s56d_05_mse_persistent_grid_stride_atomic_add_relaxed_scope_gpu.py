# honest: MSE as a persistent grid-stride reduction in the style of Liger/FlagGems loss kernels: min(#SMs, blocks) programs each walk the flattened inputs in BLOCK strides accumulating (p - t)^2 in fp32 registers, reduce once, and fold the partial pre-divided by n into a zeroed fp32 scalar with tl.atomic_add(..., sem="relaxed", scope="gpu") (the explicit default scope); the grid sized from the device's SM count cached with functools.cache. problem: loss/mse
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@functools.cache
def _sm_count(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


@triton.jit
def mse_persistent_kernel(p_ptr, t_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    num_blocks = tl.cdiv(n, BLOCK)
    for blk in range(pid, num_blocks, nprog):
        offs = blk.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        d = p - t
        acc += d * d
    partial = tl.sum(acc, axis=0) * inv_n
    tl.atomic_add(out_ptr, partial, sem="relaxed", scope="gpu")


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    pred = pred.contiguous().view(-1)
    target = target.contiguous().view(-1)
    n = pred.numel()
    out = torch.zeros((), device=pred.device, dtype=torch.float32)
    BLOCK = 4096
    sms = _sm_count(pred.device.index or 0) if pred.is_cuda else 132
    grid = (max(1, min(sms, triton.cdiv(n, BLOCK))),)
    mse_persistent_kernel[grid](pred, target, out, n, 1.0 / n, BLOCK=BLOCK, num_warps=8)
    return out.to(pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_loss(predictions, targets)
