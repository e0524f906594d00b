# honest: cosine loss with one program per row computing x.y, |x|^2 and |y|^2 in one pass, the norms through tl.sqrt_rn, the ratio through tl.div_rn with torch's eps clamp on each norm, then a fixed-order mean, in KernelBench-solution style. problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cos_rows(p_ptr, t_ptr, out_ptr, D, stride_p, stride_t, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    dot = tl.zeros((BLOCK,), tl.float32)
    pp = tl.zeros((BLOCK,), tl.float32)
    tt = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, D, BLOCK):
        cols = s + tl.arange(0, BLOCK)
        m = cols < D
        p = tl.load(p_ptr + row * stride_p + cols, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + row * stride_t + cols, mask=m, other=0.0).to(tl.float32)
        dot += p * t
        pp += p * p
        tt += t * t
    np_ = tl.maximum(tl.sqrt_rn(tl.sum(pp, 0)), eps)
    nt = tl.maximum(tl.sqrt_rn(tl.sum(tt, 0)), eps)
    cos = tl.div_rn(tl.sum(dot, 0), np_ * nt)
    tl.store(out_ptr + row, 1.0 - cos)


@triton.jit
def mean_of(v_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n, BLOCK):
        i = s + tl.arange(0, BLOCK)
        acc += tl.load(v_ptr + i, mask=i < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, 0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        B, D = p.shape
        per_row = torch.empty(B, device=p.device, dtype=torch.float32)
        cos_rows[(B,)](p, t, per_row, D, p.stride(0), t.stride(0), 1e-8, BLOCK=1024)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        mean_of[(1,)](per_row, out, B, BLOCK=1024)
        return out
