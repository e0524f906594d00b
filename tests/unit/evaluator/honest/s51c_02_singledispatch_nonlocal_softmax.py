# honest: @functools.singledispatch picking the row block from an int or a torch.Size-like tuple (registered by annotation and by class), a nonlocal launch counter in a host closure, and an enum.Flag of what the kernel masks. problem: softmax/softmax
import enum
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Masks(enum.Flag):
    COLS = enum.auto()
    ROWS = enum.auto()


@functools.singledispatch
def row_block(cols):
    raise TypeError(f"no row block for {cols!r}")


@row_block.register
def _(cols: int):
    return triton.next_power_of_2(cols)


@row_block.register(tuple)
def _(shape):
    return row_block(int(shape[-1]))


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr, MASK_COLS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    if MASK_COLS:
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    else:
        x = tl.load(x_ptr + row * stride + cols)
    x = x.to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    if MASK_COLS:
        tl.store(y_ptr + row * stride + cols, y, mask=cols < n_cols)
    else:
        tl.store(y_ptr + row * stride + cols, y)


def make_softmax():
    launches = 0

    def softmax(x: torch.Tensor) -> torch.Tensor:
        nonlocal launches
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        block = row_block(tuple(x.shape))
        masks = Masks.COLS if block != cols else Masks(0)
        softmax_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=block, MASK_COLS=Masks.COLS in masks)
        launches += 1
        return y

    def count() -> int:
        return launches

    return softmax, count


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax, self.launches = make_softmax()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softmax(x)
