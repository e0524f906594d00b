# honest: hinge loss mean(clamp(1 - p t, min=0)) as two Triton kernels: per-block partial sums into an fp32 buffer, then one program loops over the partials and writes the mean; forward returns a 0-d view of that one-element output. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_partials(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    p = tl.load(p_ptr + offs, mask=m, other=0.0)
    t = tl.load(t_ptr + offs, mask=m, other=0.0)
    h = tl.maximum(1.0 - p * t, 0.0)
    h = tl.where(m, h, 0.0)
    tl.store(part_ptr + pid, tl.sum(h, axis=0))


@triton.jit
def finish_mean(part_ptr, out_ptr, n_parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n_parts, BLOCK):
        idx = i + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + idx, mask=idx < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.reshape(-1)
        t = targets.reshape(-1)
        n = p.numel()
        BLOCK = 4096
        n_parts = triton.cdiv(n, BLOCK)
        partials = torch.empty(n_parts, device=p.device, dtype=torch.float32)
        hinge_partials[(n_parts,)](p, t, partials, n, BLOCK=BLOCK)
        out = torch.empty(1, device=p.device, dtype=torch.float32)
        finish_mean[(1,)](partials, out, n_parts, n, BLOCK=1024)
        return out[0]
