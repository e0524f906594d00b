# honest: lucidrains' triton-transformer softmax (triton_transformer/softmax.py) brought to today's Triton (a BLOCK_SIZE constexpr where it read meta['BLOCK_SIZE']): a calc_num_warps helper, an autograd.Function written with @classmethod forward(self, ctx, x) / backward(self, ctx, grad), `if x.requires_grad: ctx.save_for_backward(y)`, x.view(-1, shape[-1]) then y.view(*shape), a module-level alias `triton_softmax = _softmax.apply`, and a use_triton switch beside F.softmax. problem: softmax/softmax
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd
import triton
import triton.language as tl


def calc_num_warps(block_size):
    num_warps = 4
    if block_size >= 2048:
        num_warps = 8
    if block_size >= 4096:
        num_warps = 16
    return num_warps


@triton.jit
def softmax_kernel_forward(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                           BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    row = tl.load(row_start_ptr + col_offsets, mask=col_offsets < n_cols, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, numerator / denominator, mask=col_offsets < n_cols)


@triton.jit
def softmax_kernel_backward(output_ptr, input_ptr, grad_ptr, grad_row_stride, input_row_stride,
                            output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    probs_row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=col_offsets < n_cols, other=0.)
    grad_row = tl.load(grad_ptr + row_idx * grad_row_stride + col_offsets, mask=col_offsets < n_cols, other=0.)
    dxhat = probs_row * grad_row
    softmax_grad_output = dxhat - probs_row * tl.sum(dxhat, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, softmax_grad_output, mask=col_offsets < n_cols)


class _softmax(autograd.Function):
    @classmethod
    def forward(self, ctx, x):
        shape = x.shape
        x = x.view(-1, shape[-1])
        n_rows, n_cols = x.shape
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        num_warps = calc_num_warps(BLOCK_SIZE)
        y = torch.empty_like(x)
        softmax_kernel_forward[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols,
                                          num_warps=num_warps, BLOCK_SIZE=BLOCK_SIZE)
        if x.requires_grad:
            ctx.save_for_backward(y)
        return y.view(*shape)

    @classmethod
    def backward(self, ctx, grad_probs):
        shape = grad_probs.shape
        probs, = ctx.saved_tensors
        grad_probs = grad_probs.view(-1, grad_probs.shape[-1])
        n_rows, n_cols = grad_probs.shape
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        dx = torch.empty_like(probs)
        softmax_kernel_backward[(n_rows,)](dx, probs, grad_probs, grad_probs.stride(0), probs.stride(0),
                                           dx.stride(0), n_cols, num_warps=calc_num_warps(BLOCK_SIZE),
                                           BLOCK_SIZE=BLOCK_SIZE)
        return dx.view(*shape)


triton_softmax = _softmax.apply


def softmax(x, use_triton=False):
    if use_triton:
        return triton_softmax(x)
    return F.softmax(x, dim=-1)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax(x.contiguous(), use_triton=True)
