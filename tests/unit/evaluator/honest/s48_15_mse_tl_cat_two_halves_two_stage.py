# honest: MSE in two Triton stages: each program loads two BLOCK-wide halves of its 2*BLOCK span, joins the squared differences with tl.cat(..., can_reorder=True) (the order does not matter to a sum) and writes one partial sum; a second single-program kernel sums the partials and divides by n. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_partial_kernel(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * 2 * BLOCK
    o0 = start + tl.arange(0, BLOCK)
    o1 = start + BLOCK + tl.arange(0, BLOCK)
    d0 = tl.load(p_ptr + o0, mask=o0 < n, other=0.0) - tl.load(t_ptr + o0, mask=o0 < n, other=0.0)
    d1 = tl.load(p_ptr + o1, mask=o1 < n, other=0.0) - tl.load(t_ptr + o1, mask=o1 < n, other=0.0)
    sq = tl.cat(d0 * d0, d1 * d1, can_reorder=True)
    tl.store(part_ptr + pid, tl.sum(sq, axis=0))


@triton.jit
def mse_finish_kernel(part_ptr, out_ptr, n_parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, n_parts, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        n_parts = triton.cdiv(n, 2 * BLOCK)
        parts = torch.empty(n_parts, device=p.device, dtype=torch.float32)
        mse_partial_kernel[(n_parts,)](p, t, parts, n, BLOCK=BLOCK, num_warps=4)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        mse_finish_kernel[(1,)](parts, out, n_parts, n, BLOCK=256, num_warps=4)
        return out
