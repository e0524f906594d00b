# honest: Mish with the one-exp form x * n / (n + 2), n = e^x (e^x + 2) (tanh(softplus(x)) rewritten algebraically, as fast CUDA Mish ports do), x itself past 20, and forward decorated with @torch.autocast(device_type="cuda", enabled=False) so the kernel always sees the caller's float32, as mixed-precision libraries decorate numerically sensitive ops. problem: activation/mish
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mish_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp(tl.minimum(x, 20.0))
    nn_ = e * (e + 2.0)
    y = tl.where(x > 20.0, x, x * nn_ / (nn_ + 2.0))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.autocast(device_type="cuda", enabled=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.float().contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        _mish_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        return y
