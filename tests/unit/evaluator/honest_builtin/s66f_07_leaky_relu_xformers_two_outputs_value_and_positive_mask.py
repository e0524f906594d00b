# honest: leaky ReLU in the xformers fused-activation style that keeps what backward needs: one kernel writes two outputs, the activation and an int8 mask of x > 0, the mask kept on the module as a saved-for-backward tensor, the slope a float argument. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_fwd_kernel(x_ptr, y_ptr, pos_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    pos = x > 0
    y = tl.where(pos, x, x * slope)
    tl.store(y_ptr + offs, y, mask=m)
    tl.store(pos_ptr + offs, pos.to(tl.int8), mask=m)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope
        self.saved_mask = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_ = x.contiguous()
        y = torch.empty_like(x_)
        pos = torch.empty(x_.shape, dtype=torch.int8, device=x_.device)
        n = x_.numel()
        BLOCK = 2048
        leaky_relu_fwd_kernel[(triton.cdiv(n, BLOCK),)](x_, y, pos, n, self.negative_slope, BLOCK=BLOCK, num_warps=4)
        self.saved_mask = pos
        return y
