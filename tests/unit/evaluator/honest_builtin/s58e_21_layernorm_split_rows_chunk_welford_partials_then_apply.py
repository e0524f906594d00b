# honest: layer norm for long rows split over programs: kernel 1 writes each (row, chunk)'s count, mean and M2 (Welford partials) to fp32 buffers; kernel 2 merges a row's partials with Chan's formula in-kernel and writes (x - mean) * rstd * w + b for its chunk, eps from the nn.LayerNorm. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_partials_kernel(x_ptr, cnt_ptr, mean_ptr, m2_ptr, n_cols, n_chunks, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    cols = c * CHUNK + tl.arange(0, CHUNK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    cnt = tl.sum(mask.to(tl.float32), 0)
    mean = tl.sum(x, 0) / cnt
    d = tl.where(mask, x - mean, 0.0)
    m2 = tl.sum(d * d, 0)
    slot = row * n_chunks + c
    tl.store(cnt_ptr + slot, cnt)
    tl.store(mean_ptr + slot, mean)
    tl.store(m2_ptr + slot, m2)


@triton.jit
def ln_apply_kernel(x_ptr, y_ptr, w_ptr, b_ptr, cnt_ptr, mean_ptr, m2_ptr, n_cols, n_chunks, eps,
                    CHUNK: tl.constexpr, NC: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    idx = tl.arange(0, NC)
    pm = idx < n_chunks
    cnt = tl.load(cnt_ptr + row * n_chunks + idx, mask=pm, other=0.0)
    mean_c = tl.load(mean_ptr + row * n_chunks + idx, mask=pm, other=0.0)
    m2_c = tl.load(m2_ptr + row * n_chunks + idx, mask=pm, other=0.0)
    n = tl.sum(cnt, 0)
    mean = tl.sum(cnt * mean_c, 0) / n
    dm = mean_c - mean
    var = (tl.sum(m2_c, 0) + tl.sum(cnt * dm * dm, 0)) / n
    rstd = 1.0 / tl.sqrt(var + eps)
    cols = c * CHUNK + tl.arange(0, CHUNK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x):
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        rows, cols = x2.shape
        CHUNK = 512
        n_chunks = triton.cdiv(cols, CHUNK)
        stats = torch.empty((3, rows, n_chunks), device=x.device, dtype=torch.float32)
        cnt, mean, m2 = stats[0], stats[1], stats[2]
        grid = (rows, n_chunks)
        ln_partials_kernel[grid](x2, cnt, mean, m2, cols, n_chunks, CHUNK=CHUNK)
        y = torch.empty_like(x2)
        ln_apply_kernel[grid](x2, y, self.norm.weight, self.norm.bias, cnt, mean, m2, cols, n_chunks,
                              self.norm.eps, CHUNK=CHUNK, NC=triton.next_power_of_2(n_chunks))
        return y.view(shape)
