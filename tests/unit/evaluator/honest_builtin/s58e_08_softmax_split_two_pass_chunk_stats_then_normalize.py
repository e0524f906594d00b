# honest: softmax for long rows split across programs: pass 1 launches (rows, chunks) programs that each write their chunk's max and sum of exp to small (rows, chunks) fp32 buffers; pass 2 merges the chunk stats in-kernel and writes exp(x - m) / s for its chunk. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def chunk_stats_kernel(x_ptr, m_ptr, s_ptr, n_cols, n_chunks, stride_row, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    cols = c * CHUNK + tl.arange(0, CHUNK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    s = tl.sum(tl.exp(x - m), axis=0)
    tl.store(m_ptr + row * n_chunks + c, m)
    tl.store(s_ptr + row * n_chunks + c, s)


@triton.jit
def normalize_kernel(x_ptr, y_ptr, m_ptr, s_ptr, n_cols, n_chunks, stride_row,
                     CHUNK: tl.constexpr, NC: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    idx = tl.arange(0, NC)
    ms = tl.load(m_ptr + row * n_chunks + idx, mask=idx < n_chunks, other=-float("inf"))
    ss = tl.load(s_ptr + row * n_chunks + idx, mask=idx < n_chunks, other=0.0)
    m = tl.max(ms, axis=0)
    s = tl.sum(ss * tl.exp(ms - m), axis=0)
    cols = c * CHUNK + tl.arange(0, CHUNK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_row + cols, tl.exp(x - m) / s, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        CHUNK = 1024
        n_chunks = triton.cdiv(cols, CHUNK)
        m = torch.empty((rows, n_chunks), device=x.device, dtype=torch.float32)
        s = torch.empty_like(m)
        y = torch.empty_like(x)
        grid = (rows, n_chunks)
        chunk_stats_kernel[grid](x, m, s, cols, n_chunks, x.stride(0), CHUNK=CHUNK)
        normalize_kernel[grid](x, y, m, s, cols, n_chunks, x.stride(0),
                               CHUNK=CHUNK, NC=triton.next_power_of_2(n_chunks))
        return y
