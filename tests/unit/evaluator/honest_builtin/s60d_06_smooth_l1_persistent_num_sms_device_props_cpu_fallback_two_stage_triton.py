# honest: smooth L1 (beta 1) as a persistent grid-stride kernel sized by the device's multi_processor_count from torch.cuda.get_device_properties (a fixed program count off CUDA), one fp32 partial per program, then a one-program Triton kernel summing the partials and dividing by numel. problem: loss/smooth_l1. policy: strict
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@functools.lru_cache(maxsize=None)
def _num_sms(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


def _programs(t: torch.Tensor) -> int:
    if t.is_cuda:
        return 2 * _num_sms(t.device.index if t.device.index is not None else torch.cuda.current_device())
    return 8


@triton.jit
def _smooth_l1_partials(p_ptr, t_ptr, part_ptr, n, BETA: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        d = tl.load(p_ptr + offs, mask=mask, other=0.0) - tl.load(t_ptr + offs, mask=mask, other=0.0)
        ad = tl.abs(d)
        acc += tl.where(ad < BETA, 0.5 * d * d / BETA, ad - 0.5 * BETA)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _finish_mean(part_ptr, out_ptr, num_parts, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    parts = tl.load(part_ptr + offs, mask=offs < num_parts, other=0.0)
    tl.store(out_ptr, tl.sum(parts, axis=0) / n)


class ModelNew(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        progs = _programs(p)
        partials = torch.empty(progs, device=p.device, dtype=torch.float32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        _smooth_l1_partials[(progs,)](p, t, partials, n, BETA=1.0, BLOCK=1024, num_warps=4)
        _finish_mean[(1,)](partials, out, progs, n, BLOCK=triton.next_power_of_2(progs))
        return out
