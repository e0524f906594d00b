# honest: BatchNorm inference with @torch.no_grad forward, a 2D grid (N*C planes, cdiv(HW, BLOCK)), per-channel running stats and affine loaded as scalars, tl.math.rsqrt in-kernel. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bn_eval_kernel(
    x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr,
    C, HW, eps,
    BLOCK: tl.constexpr,
):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    c = plane % C
    mu = tl.load(mean_ptr + c).to(tl.float32)
    var = tl.load(var_ptr + c).to(tl.float32)
    gamma = tl.load(w_ptr + c).to(tl.float32)
    beta = tl.load(b_ptr + c).to(tl.float32)
    scale = gamma * tl.math.rsqrt(var + eps)
    shift = beta - mu * scale
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    y = x.to(tl.float32) * scale + shift
    tl.store(y_ptr + base + offs, y.to(x.dtype), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        HW = H * W
        y = torch.empty_like(x)
        BLOCK = 1024
        grid = (N * C, triton.cdiv(HW, BLOCK))
        _bn_eval_kernel[grid](
            x, y, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias,
            C, HW, self.bn.eps, BLOCK=BLOCK, num_warps=4,
        )
        return y
