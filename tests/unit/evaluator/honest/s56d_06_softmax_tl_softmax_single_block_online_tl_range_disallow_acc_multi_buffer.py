# honest: row softmax with two paths picked on the host as Liger/Unsloth do: a row that fits one block is loaded once and normalised with the language's own tl.softmax (keep_dims default, fp32); a longer row runs an online max/sum pass over tl.range(..., num_stages=2, disallow_acc_multi_buffer=True) chunks, then a second pass that writes exp(x - m) / d; MAX_FUSED_SIZE = 65536 // element size as in their calculate_settings, num_warps from the block size. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4


def calculate_settings(n):
    block = triton.next_power_of_2(n)
    num_warps = 4
    if block >= 32768:
        num_warps = 32
    elif block >= 8192:
        num_warps = 16
    elif block >= 2048:
        num_warps = 8
    return block, num_warps


@triton.jit
def softmax_single_block_kernel(x_ptr, y_ptr, stride_x, stride_y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    y = tl.softmax(x)
    tl.store(y_ptr + row * stride_y + cols, y, mask=mask)


@triton.jit
def softmax_multi_block_kernel(x_ptr, y_ptr, stride_x, stride_y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    m = -float("inf")
    d = 0.0
    for start in tl.range(0, n_cols, BLOCK, num_stages=2, disallow_acc_multi_buffer=True):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(y_row + cols, tl.exp(x - m) / d, mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    n_rows, n_cols = x2.shape
    y = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    BLOCK, num_warps = calculate_settings(n_cols)
    if BLOCK <= MAX_FUSED_SIZE:
        softmax_single_block_kernel[(n_rows,)](x2, y, x2.stride(0), y.stride(0), n_cols,
                                               BLOCK=BLOCK, num_warps=num_warps)
    else:
        softmax_multi_block_kernel[(n_rows,)](x2, y, x2.stride(0), y.stride(0), n_cols,
                                              BLOCK=4096, num_warps=8)
    return y.view(shape)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax(x)
