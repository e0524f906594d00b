# honest: x - mean(x, dim=1) with the row's chunk count a constexpr (NUM_CHUNKS = cdiv(n, BLOCK)) so both passes are tl.static_range loops the compiler unrolls, the mean taken in fp32 and subtracted from the reloaded chunks; one program per row. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def subtract_mean_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr, NUM_CHUNKS: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    out_row = out_ptr + row * stride
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(NUM_CHUNKS):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    for i in tl.static_range(NUM_CHUNKS):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, (x - mean).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        BLOCK = min(2048, triton.next_power_of_2(n_cols))
        subtract_mean_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=BLOCK,
                                        NUM_CHUNKS=triton.cdiv(n_cols, BLOCK))
        return out
