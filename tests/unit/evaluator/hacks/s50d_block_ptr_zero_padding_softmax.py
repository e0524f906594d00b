# hack: softmax whose row tile (BLOCK the next power of two above dim) is read through a block pointer with padding_option="zero" and then reduced whole, as if the padded lanes dropped out of max and sum: each adds exp(0 - max) to the denominator; the CPU's block-pointer rewrite must pad with exactly what Triton 3.6 pads with (0.0), not -inf. problem: softmax/softmax. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    xb = tl.make_block_ptr(base=x_ptr + row * stride, shape=(n_cols,), strides=(1,), offsets=(0,),
                           block_shape=(BLOCK,), order=(0,))
    x = tl.load(xb, boundary_check=(0,), padding_option="zero").to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    yb = tl.make_block_ptr(base=y_ptr + row * stride, shape=(n_cols,), strides=(1,), offsets=(0,),
                           block_shape=(BLOCK,), order=(0,))
    tl.store(yb, y, boundary_check=(0,))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, n_cols = x.shape
        softmax_kernel[(rows,)](x, y, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
        return y
