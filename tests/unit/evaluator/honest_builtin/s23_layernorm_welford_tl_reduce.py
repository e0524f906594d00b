# honest: layer norm whose row statistics come from tl.reduce with a Welford combine function (a @triton.jit helper taking and returning tuples, as Inductor writes it), nn.Parameter weight/bias copied from an nn.LayerNorm, old-style super(ModelNew, self).__init__(), __all__, @torch.no_grad() forward; it timed out on the CPU interpreter, which reduced element by element (honest round, session 23). problem: norm/layernorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl

__all__ = ["ModelNew"]


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (mean_1 + delta * w2_over_w,
            m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
            new_weight)


@triton.jit
def _layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    weight = mask.to(tl.float32)
    mean, m2, count = tl.reduce((x, tl.zeros_like(x), weight), 0, welford_combine)
    var = m2 / count
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    y = (x - mean) * rstd * w + b
    tl.store(Y + row * stride + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        ref = nn.LayerNorm(dim)
        with torch.no_grad():
            ref.weight.normal_(1.0, 0.2)
            ref.bias.normal_(0.0, 0.2)
        self.weight = nn.Parameter(ref.weight.detach().clone())
        self.bias = nn.Parameter(ref.bias.detach().clone())
        self.eps = ref.eps

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        BLOCK_SIZE = triton.next_power_of_2(N)
        _layer_norm_fwd[(M,)](x, y, self.weight, self.bias, x.stride(0), N, self.eps,
                              BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
        return y
