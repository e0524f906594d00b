# honest: x * weight + bias over (tokens, features) with the host-side habits of library code: `from torch import Tensor` annotations, a module-level `cdiv = lambda ...`, math.prod of the leading dims, `with torch.cuda.device(x.device) if x.is_cuda else nullcontext():` around the launch, forward under @torch.inference_mode(), a @property for the flattened feature count; kernel over a 2-D grid of (row block, feature block). problem: elementwise/scale_bias
import math
from contextlib import nullcontext

import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch import Tensor

cdiv = lambda a, b: (a + b - 1) // b  # noqa: E731


@triton.jit
def scale_bias_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_m,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    mask = (rows[:, None] < M) & cmask[None, :]
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0)
    offs = rows[:, None].to(tl.int64) * stride_m + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, x * w[None, :] + b[None, :], mask=mask)


class ModelNew(nn.Module):
    BLOCK_M = 16
    BLOCK_N = 256

    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    @property
    def num_features(self) -> int:
        return self.weight.numel()

    @torch.inference_mode()
    def forward(self, x: Tensor) -> Tensor:
        N = self.num_features
        assert x.shape[-1] == N, f"expected {N} features, got {x.shape[-1]}"
        M = math.prod(x.shape[:-1])
        x2 = x.reshape(M, N).contiguous()
        y = torch.empty_like(x2)
        grid = (cdiv(M, self.BLOCK_M), cdiv(N, self.BLOCK_N))
        with torch.cuda.device(x.device) if x.is_cuda else nullcontext():
            scale_bias_kernel[grid](x2, self.weight, self.bias, y, M, N, x2.stride(0),
                                    BLOCK_M=self.BLOCK_M, BLOCK_N=self.BLOCK_N)
        return y.view(x.shape)
