# fla-style chunked cumulative sum: a program per row scans BT-wide chunks with tl.cumsum and
# carries the running total between chunks; REVERSE and HAS_SCALE are constexpr flags set by
# triton.heuristics from the arguments (fla's chunk_local_cumsum keeps both)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"HAS_SCALE": lambda args: args["scale"] is not None})
@triton.jit
def chunk_cumsum_kernel(s, o, scale, T, stride_row, BT: tl.constexpr, REVERSE: tl.constexpr,
                        HAS_SCALE: tl.constexpr):
    i_row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for i_t in range(0, tl.cdiv(T, BT)):
        offs = i_t * BT + tl.arange(0, BT)
        mask = offs < T
        b_s = tl.load(s + i_row * stride_row + offs, mask=mask, other=0.0).to(tl.float32)
        b_o = tl.cumsum(b_s, axis=0) + carry
        carry += tl.sum(b_s, axis=0)
        if HAS_SCALE:
            b_o *= scale
        tl.store(o + i_row * stride_row + offs, b_o.to(o.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.transpose(self.dim, -1).contiguous() if self.dim not in (-1, x.ndim - 1) else x.contiguous()
        rows = x.reshape(-1, x.shape[-1])
        out = torch.empty_like(rows)
        T = rows.shape[-1]
        chunk_cumsum_kernel[(rows.shape[0],)](rows, out, None, T, rows.stride(0), BT=256, REVERSE=False)
        out = out.reshape(x.shape)
        return out.transpose(self.dim, -1) if self.dim not in (-1, x.ndim - 1) else out
