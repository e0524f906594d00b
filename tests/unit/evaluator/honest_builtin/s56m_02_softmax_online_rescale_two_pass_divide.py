# honest: softmax over column blocks: pass one keeps a running max and a normaliser rescaled by exp(m - m_new) whenever the max grows (online softmax), pass two normalises by division, exp(x - m) / l; its products feed adds the GPU contracts into fma (interpreter_fusion). problem: softmax/softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_online_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    m = tl.full((), -float("inf"), tl.float32)
    l = tl.zeros((), dtype=tl.float32)
    # pass 1: running max and a normaliser rescaled whenever the max grows
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    # pass 2: normalise by division
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, tl.exp(x - m) / l, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(1024, triton.next_power_of_2(cols))
        softmax_online_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=block)
        return y
