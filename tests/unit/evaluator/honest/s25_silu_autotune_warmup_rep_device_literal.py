# honest: @triton.autotune with warmup= and rep= as GPU benchmark scripts set them, the output allocated with a literal device="cuda" when the input is on the GPU, x * tl.sigmoid(x). problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((512, 2), (1024, 4), (2048, 8))],
    key=["n"],
    warmup=10,
    rep=40,
)
@triton.jit
def silu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(y_ptr + offs, x * tl.sigmoid(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        if x.is_cuda:
            y = torch.empty(x.shape, device="cuda", dtype=x.dtype)
        else:
            y = torch.empty_like(x)
        n = x.numel()
        silu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
        return y
