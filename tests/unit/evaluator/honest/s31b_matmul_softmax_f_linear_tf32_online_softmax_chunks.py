# honest: cuBLAS through F.linear(x, self.linear.weight, self.linear.bias) with `torch.backends.cuda.matmul.allow_tf32 = True` and `torch.backends.cudnn.allow_tf32 = True` at the top of the file, then a Triton softmax epilogue that walks the row in BLOCK_N chunks with an online (running max, rescaled sum) first pass and a normalising second pass, stride_ym/stride_om arguments, an `if not y.is_contiguous():` guard. problem: fused/matmul_softmax
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True


@triton.jit
def online_softmax_kernel(
    y_ptr, out_ptr,
    n_cols,
    stride_ym, stride_om,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0)
    y_row = y_ptr + row * stride_ym
    o_row = out_ptr + row * stride_om

    # pass 1: running max and running sum of exp, rescaled when the max moves
    m_i = tl.full((BLOCK_N,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(y_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m_i, x)
        # lanes that have only seen -inf keep a zero sum
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m_i - m_new))
        p = tl.where(m_new == float("-inf"), 0.0, tl.exp(x - m_new))
        l_i = l_i * alpha + p
        m_i = m_new
    m = tl.max(m_i, axis=0)
    l = tl.sum(tl.where(m_i == float("-inf"), 0.0, l_i * tl.exp(m_i - m)), axis=0)
    inv_l = 1.0 / l

    # pass 2: normalise
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(y_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(o_row + cols, tl.exp(x - m) * inv_l, mask=mask)


def triton_softmax(y: torch.Tensor) -> torch.Tensor:
    if not y.is_contiguous():
        y = y.contiguous()
    n_rows, n_cols = y.shape
    out = torch.empty_like(y)
    BLOCK_N = min(triton.next_power_of_2(n_cols), 1024)
    # one chunk per program at small widths, several at large ones
    BLOCK_N = max(BLOCK_N // 2, 16) if n_cols > 64 else BLOCK_N
    num_warps = 8 if BLOCK_N >= 1024 else 4
    online_softmax_kernel[(n_rows,)](
        y, out, n_cols, y.stride(0), out.stride(0),
        BLOCK_N=BLOCK_N, num_warps=num_warps,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.linear.weight, self.linear.bias)
        return triton_softmax(y)
