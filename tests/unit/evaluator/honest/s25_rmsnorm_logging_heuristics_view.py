# honest: RMSNorm with a module logger (logging.getLogger(__name__).debug), @triton.heuristics deriving BLOCK and num_warps from the row length, x.view(-1, hidden) and a parameter drawn as the reference draws it. problem: norm/rmsnorm
import logging

import torch
import torch.nn as nn
import triton
import triton.language as tl

logger = logging.getLogger(__name__)


@triton.heuristics({
    "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
    "num_warps": lambda args: 4 if args["n_cols"] <= 2048 else 8,
})
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.math.rsqrt(ms + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        logger.debug("RMSNorm(hidden=%d, eps=%g) with a Triton kernel", hidden, eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = x.shape[-1]
        x2d = x.contiguous().view(-1, hidden)
        y = torch.empty_like(x2d)
        rmsnorm_kernel[(x2d.shape[0],)](x2d, self.weight, y, x2d.stride(0), hidden, self.eps)
        return y.view(x.shape)
