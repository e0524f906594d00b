# honest: LayerNorm with a Welford tl.reduce whose combine is factored the way people factor it: the merge of two (mean, m2, n) partials calls a small @triton.jit helper for the weight ratio (n_b / (n_a + n_b), 0 for two empty partials); one row per program, a [BLOCK] tile reduced along axis 0, num_warps=4; nn.LayerNorm kept for its parameters. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ratio(n_a, n_b):
    n = n_a + n_b
    return tl.where(n == 0.0, 0.0, n_b / tl.where(n == 0.0, 1.0, n))


@triton.jit
def _welford_merge(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    r = _ratio(n_a, n_b)
    delta = mean_b - mean_a
    return mean_a + delta * r, m2_a + m2_b + delta * delta * n_a * r, n_a + n_b


@triton.jit
def _layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    n = mask.to(tl.float32)
    mean, m2, cnt = tl.reduce((x, tl.zeros_like(x), n), 0, _welford_merge)
    rstd = 1.0 / tl.sqrt(m2 / cnt + eps)
    w = tl.load(W + cols, mask=mask, other=0.0)
    b = tl.load(B + cols, mask=mask, other=0.0)
    tl.store(Y + row * stride + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        N = x2.shape[1]
        _layer_norm_fwd[(x2.shape[0],)](x2, y, self.norm.weight, self.norm.bias, x2.stride(0), N, self.norm.eps,
                                        BLOCK=triton.next_power_of_2(N), num_warps=4)
        return y.reshape(x.shape)
