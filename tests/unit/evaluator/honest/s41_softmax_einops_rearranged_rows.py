"""Row softmax the way fla and mamba's host code shapes tensors: einops rearranges the
(batch, dim) logits into chunks of rows and back, and one Triton program normalises each row."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from einops import rearrange


@triton.jit
def _softmax_rows(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(y_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, chunk: int = 2):
        super().__init__()
        self.chunk = chunk

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, d = x.shape
        chunk = self.chunk if b % self.chunk == 0 else 1
        xs = rearrange(x, "(c r) d -> c r d", c=chunk).contiguous()
        ys = torch.empty_like(xs)
        rows = rearrange(xs, "c r d -> (c r) d")
        out = rearrange(ys, "c r d -> (c r) d")
        _softmax_rows[(rows.shape[0],)](rows, out, d, rows.stride(0), BLOCK=triton.next_power_of_2(d))
        return rearrange(ys, "c r d -> (c r) d")
