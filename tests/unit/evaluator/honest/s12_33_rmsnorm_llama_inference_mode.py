from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(
    X, Y, W,
    stride_x_row, stride_y_row,
    N, eps,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(0)
    X += row * stride_x_row
    Y += row * stride_y_row
    _sum = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _sum += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(_sum, axis=0) / N + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, x * rstd * w, mask=mask)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, out: Optional[torch.Tensor] = None):
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    if out is None:
        out = torch.empty_like(x_arg)
    BLOCK_N = min(1024, triton.next_power_of_2(N))
    num_warps = min(max(BLOCK_N // 256, 1), 8)
    rms_norm_fwd_kernel[(M,)](x_arg, out, weight, x_arg.stride(0), out.stride(0), N, eps,
                              BLOCK_N=BLOCK_N, num_warps=num_warps)
    return out.view_as(x)


class ModelNew(nn.Module):
    """LlamaRMSNorm with a Triton forward."""

    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.variance_epsilon = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    @torch.inference_mode()
    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        return rms_norm(hidden_states.contiguous(), self.weight, self.variance_epsilon)
