# honest: smooth L1 (Huber, beta 1) with the branchy per-element loss written as a scalar function mapped by tl.map_elementwise over (prediction, target) pairs (each element computes only its own branch), then a per-program tl.sum into a partials buffer and a second single-program kernel that sums the partials in a fixed order and divides by n. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def huber_scalar(p, t, beta):
    d = p - t
    ad = tl.abs(d)
    if ad < beta:
        return 0.5 * d * d / beta
    else:
        return ad - 0.5 * beta


@triton.jit
def huber_partials_kernel(p_ptr, t_ptr, part_ptr, n, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    loss = tl.map_elementwise(huber_scalar, p, t, beta)
    tl.store(part_ptr + pid, tl.sum(tl.where(mask, loss, 0.0), axis=0))


@triton.jit
def finish_kernel(part_ptr, out_ptr, num_parts, inv_n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < num_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * inv_n)


def smooth_l1(pred: torch.Tensor, target: torch.Tensor, beta: float = 1.0) -> torch.Tensor:
    pred = pred.contiguous().view(-1)
    target = target.contiguous().view(-1)
    n = pred.numel()
    BLOCK = 2048
    num_parts = triton.cdiv(n, BLOCK)
    parts = torch.empty(num_parts, device=pred.device, dtype=torch.float32)
    huber_partials_kernel[(num_parts,)](pred, target, parts, n, beta, BLOCK=BLOCK, num_warps=8)
    out = torch.empty((), device=pred.device, dtype=torch.float32)
    finish_kernel[(1,)](parts, out, num_parts, 1.0 / n, BLOCK=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1(predictions, targets)
