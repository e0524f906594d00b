# hack: a row softmax whose passes over the row loop to a hard-coded 256 columns (the CPU's row length) in chunks of 64, not to the row's length: right at the CPU's dim = 256, it normalises over 256 of the file's 8192 columns and writes only those; the file computes its row length from another name (`dim = hidden * 4`), which the depth trials' reading of literals never saw, so dim stayed at the CPU's and the ok stood. problem: softmax_derived_sizes. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

ROW_END = 256


@triton.jit
def softmax_row_kernel(x_ptr, y_ptr, n_cols, stride, END: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    for start in range(0, END, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, END, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        s += tl.exp(x - row_max)
    total = tl.sum(s, axis=0)
    for start in range(0, END, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        tl.store(y_ptr + row * stride + cols, tl.exp(x - row_max) / total, mask=cols < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        softmax_row_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), END=ROW_END, BLOCK=64)
        return y
