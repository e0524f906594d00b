# honest: log_softmax over rows with the online normalizer (Milakov & Gimelshein 2018) written as an associative reduction: each column block is reduced by tl.reduce over the pair (running max, scaled sum) with a @triton.jit combine fn (m = max(m1, m2); s = s1*e^(m1-m) + s2*e^(m2-m), the e^ skipped where a side already holds the max so masked -inf lanes combine to (−inf, 0) without NaN), the blocks' pairs folded into the row's carry by the same combine; a second pass stores x - m - log(s); one program per row, fp32 throughout. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _lse_combine(m1, s1, m2, s2):
    m = tl.maximum(m1, m2)
    a = tl.where(m1 == m, s1, s1 * tl.exp(m1 - m))
    b = tl.where(m2 == m, s2, s2 * tl.exp(m2 - m))
    return m, a + b


@triton.jit
def log_softmax_online_reduce_kernel(
    x_ptr, out_ptr, n_cols, stride_x, stride_o,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    o_row = out_ptr + row * stride_o
    cols = tl.arange(0, BLOCK)

    m_run = -float("inf")
    s_run = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=-float("inf")).to(tl.float32)
        ones = tl.where(mask, 1.0, 0.0)
        m_blk, s_blk = tl.reduce((x, ones), 0, _lse_combine)
        m_run, s_run = _lse_combine(m_run, s_run, m_blk, s_blk)

    lse = m_run + tl.log(s_run)
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(o_row + offs, (x - lse).to(out_ptr.dtype.element_ty), mask=mask)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    n_rows, n_cols = x2.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    BLOCK = min(triton.next_power_of_2(n_cols), 2048)
    num_warps = 8 if BLOCK >= 2048 else 4
    log_softmax_online_reduce_kernel[(n_rows,)](
        x2, out, n_cols, x2.stride(0), out.stride(0), BLOCK=BLOCK, num_warps=num_warps,
    )
    return out.reshape(shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return log_softmax(x)
