# honest: log_softmax in base 2 as flash-linear-attention and the FlashAttention kernels write their exponentials: x is scaled by log2(e) once, the row max and the sum of exp2(x*log2e - m) come from one online pass over BLOCK chunks, and the output is (x*log2e - m - log2(d)) * ln(2); one program per row, the constants bound at module level as tl.constexpr globals, a heuristics lambda picking BLOCK from the row length. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)
LN2 = tl.constexpr(0.6931471805599453)


@triton.heuristics({"BLOCK": lambda args: min(4096, triton.next_power_of_2(args["N"]))})
@triton.jit
def log_softmax_exp2_kernel(x_ptr, y_ptr, stride_x, stride_y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    m = tl.full([], float("-inf"), tl.float32)
    d = tl.zeros([], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        b_x = tl.load(x_row + cols, mask=cols < N, other=float("-inf")).to(tl.float32) * LOG2E
        m_new = tl.maximum(m, tl.max(b_x, 0))
        d = d * tl.exp2(m - m_new) + tl.sum(tl.exp2(b_x - m_new), 0)
        m = m_new
    lse2 = m + tl.log2(d)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        b_x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32) * LOG2E
        tl.store(y_row + cols, ((b_x - lse2) * LN2).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_t = x.movedim(self.dim, -1)
        shape = x_t.shape
        x2 = x_t.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2)
        log_softmax_exp2_kernel[(x2.shape[0],)](x2, y, x2.stride(0), y.stride(0), x2.shape[1], num_warps=8)
        return y.reshape(shape).movedim(-1, self.dim)
