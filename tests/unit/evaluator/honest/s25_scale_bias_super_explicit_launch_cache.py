# honest: super(ModelNew, self).__init__(), parameters drawn as the reference draws them, launch settings cached per row length in a dict on the module instance (self._launch_cache), an out= buffer. problem: elementwise/scale_bias
from typing import Dict, Optional, Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_rows_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, stride_x, stride_out,
                       BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    for start in tl.range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(out_ptr + row * stride_out + cols, x * w + b, mask=mask)


def _launch_settings(n_cols: int) -> Tuple[int, int]:
    """(BLOCK_N, num_warps) for a row length."""
    block = min(triton.next_power_of_2(n_cols), 1024)
    return block, 4 if block <= 512 else 8


def scale_bias(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, settings: Tuple[int, int],
               out: Optional[torch.Tensor] = None) -> torch.Tensor:
    if out is None:
        out = torch.empty_like(x)
    n_rows, n_cols = x.shape
    block, warps = settings
    affine_rows_kernel[(n_rows,)](x, w, b, out, n_cols, x.stride(0), out.stride(0), BLOCK_N=block,
                                  num_warps=warps)
    return out


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))
        self._launch_cache: Dict[int, Tuple[int, int]] = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        n_cols = x.shape[1]
        if n_cols not in self._launch_cache:
            self._launch_cache[n_cols] = _launch_settings(n_cols)
        scale_bias(x, self.weight, self.bias, self._launch_cache[n_cols], out=out)
        return out
