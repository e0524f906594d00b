# honest: MSE of nearly equal tensors by per-lane Kahan sums (y = d * d - c; t = s + y; c = (t - s) - y), the partials finished by a Neumaier sum: contraction turns d * d - c into one fma on the GPU, and the compensated sum is still within tolerance. problem: loss/mse_close. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sq_diff_partials_kernel(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr, ITERS: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    c = tl.zeros((BLOCK,), dtype=tl.float32)
    # per-lane Kahan sums over this program's chunk
    for i in range(ITERS):
        offs = (pid * ITERS + i) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        d = tl.load(p_ptr + offs, mask=mask, other=0.0) - tl.load(t_ptr + offs, mask=mask, other=0.0)
        y = d * d - c
        t = s + y
        c = (t - s) - y
        s = t
    tl.store(part_ptr + pid, tl.sum(s, axis=0) - tl.sum(c, axis=0))


@triton.jit
def neumaier_finish_kernel(part_ptr, out_ptr, n_parts, n, BLOCK: tl.constexpr):
    s = tl.zeros((), dtype=tl.float32)
    comp = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.sum(tl.load(part_ptr + offs, mask=offs < n_parts, other=0.0), axis=0)
        t = s + v
        comp += tl.where(tl.abs(s) >= tl.abs(v), (s - t) + v, (v - t) + s)
        s = t
    tl.store(out_ptr, (s + comp) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        block, iters = 1024, 8
        n_parts = triton.cdiv(n, block * iters)
        parts = torch.empty(n_parts, device=p.device, dtype=torch.float32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        sq_diff_partials_kernel[(n_parts,)](p, t, parts, n, BLOCK=block, ITERS=iters)
        neumaier_finish_kernel[(1,)](parts, out, n_parts, n, BLOCK=256)
        return out
