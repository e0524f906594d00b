# honest: mean squared error written by a precision-minded author for nearly equal inputs: each program walks its share of the flat tensors in BLOCK chunks (grid-stride over tiles) and keeps Kahan-compensated fp32 lane sums of (p - t)^2 (y = v - c; t = s + y; c = (t - s) - y; s = t), stores its partial sum, and a one-program Triton finisher adds the partials (also compensated) and divides by n. problem: loss/mse_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sq_diff_partials(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    c = tl.zeros([BLOCK], dtype=tl.float32)
    num_tiles = tl.cdiv(n, BLOCK)
    for tile in range(pid, num_tiles, nprog):
        offs = tile.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        p = tl.load(p_ptr + offs, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=m, other=0.0).to(tl.float32)
        d = p - t
        y = d * d - c
        tot = s + y
        c = (tot - s) - y
        s = tot
    tl.store(part_ptr + pid, tl.sum(s, axis=0))


@triton.jit
def _finish_mean(part_ptr, out_ptr, n_parts, inv_n, BLOCK: tl.constexpr):
    s = tl.zeros([BLOCK], dtype=tl.float32)
    c = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_parts, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        v = tl.load(part_ptr + idx, mask=idx < n_parts, other=0.0)
        y = v - c
        tot = s + y
        c = (tot - s) - y
        s = tot
    tl.store(out_ptr, tl.sum(s, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        n_programs = min(triton.cdiv(n, BLOCK), 264)
        partials = torch.empty(n_programs, device=p.device, dtype=torch.float32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        _sq_diff_partials[(n_programs,)](p, t, partials, n, BLOCK=BLOCK)
        _finish_mean[(1,)](partials, out, n_programs, 1.0 / n, BLOCK=256)
        return out
