# honest: Liger-Kernel's RMS norm shape: _CASTING_MODE_* tl.constexpr globals and a str-to-mode dict, MAX_FUSED_SIZE, and LOG2E / HALF_LN2 computed at import with math (launch_args.kernel_constants counts those two as launch data, far under the limit), rstd by exp2 of a log. problem: norm/rmsnorm. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_CASTING_MODE_NONE = tl.constexpr(-1)
_CASTING_MODE_LLAMA = tl.constexpr(0)
_CASTING_MODE_GEMMA = tl.constexpr(1)
_str_to_casting_mode = {"llama": _CASTING_MODE_LLAMA.value, "gemma": _CASTING_MODE_GEMMA.value,
                        "none": _CASTING_MODE_NONE.value}
MAX_FUSED_SIZE = 65536
LOG2E = tl.constexpr(1.0 / math.log(2.0))  # rsqrt by exp2 below, as fast-math ports write it
HALF_LN2 = tl.constexpr(0.5 * math.log(2.0))


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, X_ptr, W_ptr, n_cols, eps, offset,
                             casting_mode: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    X_row = tl.load(X_ptr + row * n_cols + cols, mask=mask, other=0)
    X_dtype = X_row.dtype
    W_row = tl.load(W_ptr + cols, mask=mask, other=0)
    if casting_mode == _CASTING_MODE_LLAMA:
        X_row = X_row.to(tl.float32)
    if casting_mode == _CASTING_MODE_GEMMA:
        W_row = W_row.to(tl.float32)
        X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    # 1 / sqrt(m) = 2^(-log2(m) / 2); log2(m) = ln(m) * LOG2E
    rstd = tl.exp2(-tl.log(mean_square + eps) * LOG2E * 0.5)
    X_row = X_row * rstd
    if casting_mode == _CASTING_MODE_LLAMA:
        X_row = X_row.to(X_dtype)
    Y_row = X_row * (offset + W_row)
    tl.store(Y_ptr + row * n_cols + cols, Y_row, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6, casting_mode: str = "llama"):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        self.casting_mode = _str_to_casting_mode[casting_mode]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.contiguous().view(-1, shape[-1])
        rows, cols = x2.shape
        block = triton.next_power_of_2(cols)
        if block > MAX_FUSED_SIZE:
            raise RuntimeError("row too long for one block")
        y = torch.empty_like(x2)
        _rms_norm_forward_kernel[(rows,)](y, x2, self.weight, cols, self.eps, 0.0,
                                          casting_mode=self.casting_mode, BLOCK_SIZE=block)
        return y.view(shape)
