# honest: row argmax over column chunks with tl.argmax per chunk and a strict greater-than merge so the first index wins ties, int64 output, in the Triton-ops-library argmax style. problem: reduction/argmax_dim. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_rows(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    best_val = float("-inf")
    best_idx = 0
    for s in range(0, N, BLOCK):
        cols = s + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        v = tl.max(x, axis=0)
        i = tl.argmax(x, axis=0) + s
        take = v > best_val
        best_idx = tl.where(take, i, best_idx)
        best_val = tl.where(take, v, best_val)
    tl.store(out_ptr + row, best_idx.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        out = torch.empty(M, device=x.device, dtype=torch.int64)
        argmax_rows[(M,)](x, out, N, x.stride(0), BLOCK=1024)
        return out
