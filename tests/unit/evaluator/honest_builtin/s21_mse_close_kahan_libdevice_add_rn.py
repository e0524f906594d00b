# honest: MSE on near-identical inputs with Kahan-compensated block accumulation written with libdevice.add_rn / sub_rn (round-to-nearest adds the compiler may not contract or reassociate), then atomic mean (honest round, session 21). problem: loss/mse_close. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _mse_kahan(p_ptr, t_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    c = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(CHUNKS):
        offs = (pid * CHUNKS + i) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        d = tl.load(p_ptr + offs, mask=m, other=0.0) - tl.load(t_ptr + offs, mask=m, other=0.0)
        y = libdevice.sub_rn(d * d, c)
        t = libdevice.add_rn(s, y)
        c = libdevice.sub_rn(libdevice.sub_rn(t, s), y)
        s = t
    tl.atomic_add(out_ptr, tl.sum(s, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK, CHUNKS = 256, 8
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        _mse_kahan[(triton.cdiv(n, BLOCK * CHUNKS),)](p, t, out, n, 1.0 / n, BLOCK=BLOCK, CHUNKS=CHUNKS)
        return out
