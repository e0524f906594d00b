# honest: RMSNorm over a (B*S, H) view with the whole row in one next_power_of_2 block, fp32 math, tl.math.rsqrt, and the output dtype passed as a tl.constexpr looked up from a torch-to-tl dtype dict. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl

_TL_DTYPE = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}


@triton.jit
def _rms_norm_fwd(X, W, Y, stride, H, eps, OUT_DTYPE: tl.constexpr, BLOCK_H: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_H)
    mask = cols < H
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / H
    r = tl.math.rsqrt(ms + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * r * w).to(OUT_DTYPE), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.view(-1, shape[-1])
        y = torch.empty_like(x2)
        rows, H = x2.shape
        block = triton.next_power_of_2(H)
        warps = min(max(block // 256, 1), 16)
        _rms_norm_fwd[(rows,)](
            x2, self.weight, y, x2.stride(0), H, self.eps,
            OUT_DTYPE=_TL_DTYPE[x.dtype], BLOCK_H=block, num_warps=warps,
        )
        return y.view(shape)
