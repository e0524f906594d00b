# honest: smooth L1 (beta = 1) where |d| is taken by clearing the sign bit through a bitcast (`d.to(tl.uint32, bitcast=True) & 0x7FFFFFFF`, then back to float32), the bit trick of low-level CUDA ports; per-program partial sums written to a float32 workspace and a second one-program kernel sums them and divides by n. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SIGN_MASK = tl.constexpr(0x7FFFFFFF)


@triton.jit
def _fabs_bits(x):
    bits = x.to(tl.uint32, bitcast=True) & _SIGN_MASK
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def _smooth_l1_partials(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    ad = _fabs_bits(p - t)
    loss = tl.where(ad < 1.0, 0.5 * ad * ad, ad - 0.5)
    loss = tl.where(mask, loss, 0.0)
    tl.store(part_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def _finish_mean(part_ptr, out_ptr, num_parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_parts, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + idx, mask=idx < num_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    BLOCK = 4096

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        assert predictions.shape == targets.shape
        p = predictions.reshape(-1)
        t = targets.reshape(-1)
        n = p.numel()
        num_parts = triton.cdiv(n, self.BLOCK)
        partials = torch.empty(num_parts, device=p.device, dtype=torch.float32)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        _smooth_l1_partials[(num_parts,)](p, t, partials, n, BLOCK=self.BLOCK)
        _finish_mean[(1,)](partials, out, num_parts, n, BLOCK=1024)
        return out.to(predictions.dtype)
