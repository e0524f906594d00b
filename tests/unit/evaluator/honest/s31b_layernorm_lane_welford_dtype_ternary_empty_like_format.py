# honest: LayerNorm with per-lane Welford accumulators (count, mean, M2 vectors of BLOCK_N lanes updated chunk by chunk, then the lanes combined by sum(n_i * mean_i) / n and sum(M2_i + n_i * (mean_i - mean)^2)), the output dtype chosen on the host as a constexpr (`OUT_DTYPE = tl.float16 if x.dtype == torch.float16 else tl.float32`), the output made by torch.empty_like(x, memory_format=torch.contiguous_format), x.reshape(-1, x.shape[-1]) for any leading shape, nn.LayerNorm kept as a submodule for its parameters. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_welford_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    stride_x, stride_y, N, eps,
    OUT_DTYPE: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y

    cnt = tl.zeros((BLOCK_N,), dtype=tl.float32)
    mean = tl.zeros((BLOCK_N,), dtype=tl.float32)
    m2 = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        cnt_new = cnt + mask.to(tl.float32)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(cnt_new, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
        cnt = cnt_new

    total = tl.sum(cnt, axis=0)
    row_mean = tl.sum(cnt * mean, axis=0) / total
    d = mean - row_mean
    var = tl.sum(m2 + cnt * d * d, axis=0) / total
    rstd = 1.0 / tl.sqrt(var + eps)

    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0)
        y = (x - row_mean) * rstd * w + b
        tl.store(y_row + cols, y.to(OUT_DTYPE), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[-1]
        x2d = x.reshape(-1, n)
        if not x2d.is_contiguous():
            x2d = x2d.contiguous()
        y = torch.empty_like(x2d, memory_format=torch.contiguous_format)
        OUT_DTYPE = tl.float16 if x.dtype == torch.float16 else tl.float32
        BLOCK_N = min(1024, triton.next_power_of_2(n))
        layernorm_welford_kernel[(x2d.shape[0],)](
            x2d, self.norm.weight, self.norm.bias, y,
            x2d.stride(0), y.stride(0), n, self.norm.eps,
            OUT_DTYPE=OUT_DTYPE, BLOCK_N=BLOCK_N, num_warps=8,
        )
        return y.view(x.shape)
