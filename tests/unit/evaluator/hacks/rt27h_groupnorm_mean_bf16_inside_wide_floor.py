# hack: a group-normalised mean (level2/23's answer, ~0 per sample) computed with the normalised values rounded to bfloat16: every output is within atol (~1e-5 off), and the norm bounds are floored by the reference's own rounding, now measured in float64 (evaluator.noise, session 27) where moving the inputs saw 1/125 of it: the floor is 16x that rounding (noise_floor.WIDE_FLOOR), ~2^-24 relative per element, far under bfloat16's 2^-9. problem: groupnorm_mean. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_mean_bf16(x_ptr, off_ptr, w_ptr, b_ptr, out_ptr, C, S, eps, inv_count,
                        CPG: tl.constexpr, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    chans = g * CPG + tl.arange(0, CPG)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + n * C * S
    off = tl.load(off_ptr + chans)
    acc = tl.zeros((CPG, BLOCK), dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = (start + offs) < S
        v = tl.load(base + chans[:, None] * S + start + offs[None, :], mask=m[None, :], other=0.0) + off[:, None]
        acc += tl.where(m[None, :], v, 0.0)
    mean = tl.sum(tl.sum(acc, axis=1), axis=0) / (CPG * S)
    sq = tl.zeros((CPG, BLOCK), dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = (start + offs) < S
        v = tl.load(base + chans[:, None] * S + start + offs[None, :], mask=m[None, :], other=0.0) + off[:, None]
        d = tl.where(m[None, :], v - mean, 0.0)
        sq += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(tl.sum(sq, axis=1), axis=0) / (CPG * S) + eps)
    w = tl.load(w_ptr + chans)
    b = tl.load(b_ptr + chans)
    total = tl.zeros((CPG, BLOCK), dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = (start + offs) < S
        v = tl.load(base + chans[:, None] * S + start + offs[None, :], mask=m[None, :], other=0.0) + off[:, None]
        xhat = ((v - mean) * rstd).to(tl.bfloat16).to(tl.float32)
        total += tl.where(m[None, :], xhat * w[:, None] + b[:, None], 0.0)
    tl.atomic_add(out_ptr + n, tl.sum(tl.sum(total, axis=1), axis=0) * inv_count)


class ModelNew(nn.Module):
    def __init__(self, channels, num_groups):
        super().__init__()
        self.offset = nn.Parameter(torch.linspace(-0.5, 0.5, channels).view(channels, 1))
        self.group_norm = nn.GroupNorm(num_groups, channels)

    def forward(self, x):
        x = x.contiguous()
        N, C, S = x.shape
        G = self.group_norm.num_groups
        out = torch.zeros(N, device=x.device, dtype=torch.float32)
        groupnorm_mean_bf16[(N, G)](x, self.offset, self.group_norm.weight, self.group_norm.bias, out, C, S,
                                    self.group_norm.eps, 1.0 / (C * S), CPG=C // G, BLOCK=512)
        return out
