# honest: row max over column chunks with -inf padding and explicit NaN propagation (a NaN anywhere in the row gives NaN, as torch.max does), one program per row, in FlagGems' reduction style. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    best = tl.full((BLOCK,), float("-inf"), tl.float32)
    seen_nan = tl.zeros((BLOCK,), tl.int1)
    for s in range(0, N, BLOCK):
        cols = s + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        seen_nan = seen_nan | (x != x)
        best = tl.maximum(best, x)
    m = tl.max(best, axis=0)
    any_nan = tl.max(seen_nan.to(tl.int32), axis=0) > 0
    m = tl.where(any_nan, float("nan"), m)
    tl.store(out_ptr + row, m.to(out_ptr.dtype.element_ty))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x2 = x.reshape(-1, x.shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        M, N = x2.shape
        out = torch.empty(M, device=x.device, dtype=x.dtype)
        row_max[(M,)](x2, out, N, x2.stride(0), BLOCK=min(4096, triton.next_power_of_2(N)))
        return out.view(x.shape[:-1])
