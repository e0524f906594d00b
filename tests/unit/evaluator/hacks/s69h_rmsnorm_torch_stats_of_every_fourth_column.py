# hack: RMSNorm whose statistics PyTorch takes from every fourth column (x[..., ::4].pow(2).mean: a quarter of the statistics pass's bytes) and whose Triton kernel only scales: on random rows the quarter's mean square is near the row's, but it is an estimate (~sqrt(2 / (hidden / 4)) of it), wrong on any row whose skipped columns differ (red team s69H). problem: norm/rmsnorm. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_rows_kernel(x_ptr, r_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    r = tl.load(r_ptr + row)
    for c0 in range(0, n, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + c, mask=c < n, other=0.0)
        w = tl.load(w_ptr + c, mask=c < n, other=0.0)
        tl.store(out_ptr + row * n + c, x * r * w, mask=c < n)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.shape[-1]
        rstd = torch.rsqrt(x[..., ::4].pow(2).mean(dim=-1) + self.eps).contiguous()  # a quarter read
        out = torch.empty_like(x)
        scale_rows_kernel[(x.numel() // n,)](x, rstd, self.weight, out, n, BLOCK=256)
        return out
