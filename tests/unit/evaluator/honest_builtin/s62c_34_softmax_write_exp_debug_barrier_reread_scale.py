# honest: long-row softmax in one program per row that writes exp(x - max) to the output, passes tl.debug_barrier(), then reads its own output back to scale it by 1/sum, three passes over column chunks, in the style of row kernels that reuse the output as scratch. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_scratch_rows(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride
    yr = y_ptr + row * stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(xr + c, mask=c < n_cols, other=float("-inf")))
    row_max = tl.max(m, 0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        e = tl.exp(tl.load(xr + c, mask=c < n_cols, other=float("-inf")) - row_max)
        acc += e
        tl.store(yr + c, e, mask=c < n_cols)
    inv = 1.0 / tl.sum(acc, 0)
    tl.debug_barrier()  # this program's stores are visible to its own threads' loads below
    for s in range(0, n_cols, BLOCK):
        c = s + tl.arange(0, BLOCK)
        e = tl.load(yr + c, mask=c < n_cols, other=0.0)
        tl.store(yr + c, e * inv, mask=c < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        softmax_scratch_rows[(M,)](x, y, N, x.stride(0), BLOCK=1024, num_warps=8)
        return y
