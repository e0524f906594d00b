# honest: hinge loss with a tl.device_assert that labels are +-1 (active under TRITON_DEBUG or the interpreter), per-program partial sums and a second one-program kernel for the mean, in the debugging-minded style of hand-written loss kernels. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_partials(p_ptr, y_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.device_assert((y == 1.0) | (y == -1.0), "hinge labels must be +1 or -1")
    h = tl.maximum(1.0 - p * y, 0.0)
    tl.store(part_ptr + pid, tl.sum(tl.where(mask, h, 0.0), axis=0))


@triton.jit
def mean_partials(part_ptr, out_ptr, n_parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n_parts, BLOCK):
        i = s + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + i, mask=i < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        y = targets.contiguous().view(-1)
        n = p.numel()
        block = 2048
        parts = triton.cdiv(n, block)
        partial = torch.empty(parts, device=p.device, dtype=torch.float32)
        hinge_partials[(parts,)](p, y, partial, n, BLOCK=block)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        mean_partials[(1,)](partial, out, parts, n, BLOCK=512)
        return out
