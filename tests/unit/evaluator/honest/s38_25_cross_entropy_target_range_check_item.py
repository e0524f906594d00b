"""Cross entropy with the input validation production code does: the targets must lie
in [0, C) (checked once per call, one host sync), as out-of-range targets would read
outside the logits row."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ce_fwd(logits_ptr, tgt_ptr, loss_ptr, C, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    ptr = logits_ptr + row * stride
    cols = tl.arange(0, BLOCK)
    mask = cols < C
    x = tl.load(ptr + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    t = tl.load(tgt_ptr + row)
    xt = tl.load(ptr + t).to(tl.float32)
    tl.store(loss_ptr + row, lse - xt)


@triton.jit
def _mean(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n, BLOCK):
        acc += tl.load(x_ptr + i + offs, mask=i + offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        N, C = logits.shape
        if targets.numel() and bool(((targets < 0) | (targets >= C)).any()):
            raise IndexError(f"Target out of bounds: targets must be in [0, {C})")
        logits = logits.contiguous()
        losses = torch.empty(N, device=logits.device, dtype=torch.float32)
        _ce_fwd[(N,)](logits, targets, losses, C, logits.stride(0), BLOCK=triton.next_power_of_2(C))
        out = torch.empty((), device=logits.device, dtype=torch.float32)
        _mean[(1,)](losses, out, N, BLOCK=1024)
        return out
