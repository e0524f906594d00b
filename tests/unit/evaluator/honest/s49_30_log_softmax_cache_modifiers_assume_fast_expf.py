# honest: log_softmax over rows with memory hints as Liger/FlagGems write them: loads with eviction_policy="evict_last" (the row is read twice) and cache_modifier=".cg", the output store with cache_modifier=".cs", tl.assume on the row stride, libdevice.fast_expf for the sum of exponentials (max subtracted first, so the arguments are <= 0) and tl.log for the normalizer; a two-pass online (max, sum) over column blocks. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    tl.assume(stride_x > 0)
    tl.assume(stride_y > 0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=-float("inf"),
                    eviction_policy="evict_last", cache_modifier=".cg").to(tl.float32)
        m_new = tl.maximum(m, x)
        # lanes that have seen only -inf keep 0 in s (guard inf - inf)
        scale = tl.where(m_new == -float("inf"), 0.0, libdevice.fast_expf(m - m_new))
        p = tl.where(m_new == -float("inf"), 0.0, libdevice.fast_expf(x - m_new))
        s = s * scale + p
        m = m_new
    row_max = tl.max(m, axis=0)
    s = tl.where(m == -float("inf"), 0.0, s * libdevice.fast_expf(m - row_max))
    lse = row_max + tl.log(tl.sum(s, axis=0))
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        tl.store(y_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask, cache_modifier=".cs")


def log_softmax(x: torch.Tensor, dim: int) -> torch.Tensor:
    if dim < 0:
        dim += x.dim()
    assert dim == x.dim() - 1, "rows along the last axis"
    x2 = x.reshape(-1, x.shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    y = torch.empty_like(x2)
    M, N = x2.shape
    BLOCK = min(2048, triton.next_power_of_2(N))
    log_softmax_kernel[(M,)](x2, y, N, x2.stride(0), y.stride(0), BLOCK=BLOCK, num_warps=8)
    return y.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return log_softmax(x, self.dim)
