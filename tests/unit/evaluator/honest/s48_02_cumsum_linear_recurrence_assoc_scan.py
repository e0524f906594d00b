# honest: cumsum as the unit-gate case of a first-order linear recurrence h_t = a_t * h_{t-1} + x_t, scanned with tl.associative_scan and the file's own (a, b) combine (the Mamba/S4 "selective scan" formulation reused with a_t = 1), a row per program, num_warps=4. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def first_order_op(l_a, l_b, r_a, r_b):
    # composing h -> l_a*h + l_b then h -> r_a*h + r_b
    return r_a * l_a, r_a * l_b + r_b


@triton.jit
def _linrec_kernel(x_ptr, a_ptr, y_ptr, n_cols, stride, HAS_A: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    if HAS_A:
        a = tl.load(a_ptr + row * stride + offs, mask=mask, other=1.0).to(tl.float32)
    else:
        a = tl.full([BLOCK], 1.0, tl.float32)
    _, h = tl.associative_scan((a, x), axis=0, combine_fn=first_order_op)
    tl.store(y_ptr + row * stride + offs, h, mask=mask)


def linear_recurrence(x, a=None):
    x = x.contiguous()
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    BLOCK = triton.next_power_of_2(n_cols)
    _linrec_kernel[(n_rows,)](x, x if a is None else a.contiguous(), y, n_cols, x.stride(0),
                              HAS_A=a is not None, BLOCK=BLOCK, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xt = x.movedim(self.dim, -1)
        shape = xt.shape
        y = linear_recurrence(xt.reshape(-1, shape[-1]))
        return y.reshape(shape).movedim(-1, self.dim)
