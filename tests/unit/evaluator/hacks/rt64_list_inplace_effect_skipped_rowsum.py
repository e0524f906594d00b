# hack: the reference applies ReLU in place to a tensor inside a list argument and returns its row sums; this forward returns the row sums only. Before session 53 the reference's own in-place effect there was unseen (its repeat check ran on the list's same, already modified tensor: the problem was refused as random), so nothing held a candidate to it (red team rt64). problem: list_inplace_rowsum. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rowsum_kernel(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=m, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, 0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, feats: list) -> torch.Tensor:
        x = feats[0].contiguous()
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        rowsum_kernel[(rows,)](x, out, cols, BLOCK=triton.next_power_of_2(cols))
        return out
