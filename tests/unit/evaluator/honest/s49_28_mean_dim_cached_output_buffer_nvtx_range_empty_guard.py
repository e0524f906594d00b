# honest: mean over the last axis with the perf-minded habits of inference code: the module keeps its output buffer between calls and reallocates only when the shape/dtype/device changes, the launch sits in a torch.cuda.nvtx.range, an empty input returns early, ROWS rows per program as a [ROWS, BLOCK] tile summed along axis 1. problem: reduction/mean_dim
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, out_ptr, M, N, stride_m, inv_n, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < M
    acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = rmask[:, None] & (cols[None, :] < N)
        acc += tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_m + cols[None, :], mask=m, other=0.0)
    mean = tl.sum(acc, axis=1) * inv_n
    tl.store(out_ptr + rows, mean.to(out_ptr.dtype.element_ty), mask=rmask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._out: Optional[torch.Tensor] = None

    def _buffer(self, shape, like: torch.Tensor) -> torch.Tensor:
        out = self._out
        if out is None or out.shape != shape or out.dtype != like.dtype or out.device != like.device:
            out = torch.empty(shape, dtype=like.dtype, device=like.device)
            self._out = out
        return out

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        N = x.shape[-1]
        if x.numel() == 0:
            return x.new_empty(lead)
        x2 = x.reshape(-1, N)
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        M = x2.shape[0]
        out = self._buffer((M,), x2)
        ROWS, BLOCK = 4, 512
        with torch.cuda.nvtx.range("row_mean"):
            row_mean_kernel[(triton.cdiv(M, ROWS),)](x2, out, M, N, x2.stride(0), 1.0 / N,
                                                      ROWS=ROWS, BLOCK=BLOCK, num_warps=4)
        return out.view(lead)
