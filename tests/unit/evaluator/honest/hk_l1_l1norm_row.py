# An honest ModelNew for KernelBench level1/38_L1Norm_; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l1norm_kernel(x_ptr, y_ptr, D, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    ptr = x_ptr + row * D
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(0, D, BLOCK):
        o = s + tl.arange(0, BLOCK)
        acc += tl.abs(tl.load(ptr + o, mask=o < D, other=0.0))
    mean_abs = tl.sum(acc, axis=0) / D
    for s in range(0, D, BLOCK):
        o = s + tl.arange(0, BLOCK)
        m = o < D
        tl.store(y_ptr + row * D + o, tl.load(ptr + o, mask=m) / mean_abs, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, D = x.shape
        y = torch.empty_like(x)
        l1norm_kernel[(B,)](x, y, D, BLOCK=256)
        return y
