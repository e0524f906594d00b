# Honest: BCE of probabilities with the log clamped at -100 as torch does, mean by atomics (honest round, session 16: the reference raised on the x1e3 trial's inputs, and the whole evaluation was called the problem's failure).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bce_kernel(p_ptr, t_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    p = tl.load(p_ptr + offs, mask=m, other=0.5)
    t = tl.load(t_ptr + offs, mask=m, other=0.0)
    # PyTorch clamps each log term at -100
    logp = tl.maximum(tl.log(p), -100.0)
    log1mp = tl.maximum(tl.log(1.0 - p), -100.0)
    loss = -(t * logp + (1.0 - t) * log1mp)
    loss = tl.where(m, loss, 0.0)
    tl.atomic_add(out_ptr, tl.sum(loss, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        bce_kernel[(triton.cdiv(n, 1024),)](p, t, out, n, 1.0 / n, BLOCK=1024)
        return out
