# honest: subtract the row mean under @torch.inference_mode(), the launch's meta-parameters kept in a dict and splatted (kernel[grid](*args, **meta)), a centred two-pass mean for the tiny-output case, in inference-server wrapper style. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def center_rows(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        acc += tl.load(xr + c, mask=c < n_cols, other=0.0)
    mean0 = tl.sum(acc, 0) / n_cols
    # second pass on the residuals: the row mean of values near 3 is held to about 1e-3 here
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        acc += tl.where(c < n_cols, tl.load(xr + c, mask=c < n_cols, other=0.0) - mean0, 0.0)
    mean = mean0 + tl.sum(acc, 0) / n_cols
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        v = tl.load(xr + c, mask=c < n_cols, other=0.0)
        tl.store(y_ptr + row * stride + c, v - mean, mask=c < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.inference_mode()
    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        meta = {"BLOCK": min(2048, triton.next_power_of_2(N)), "num_warps": 4}
        center_rows[(M,)](x, y, N, x.stride(0), **meta)
        return y
