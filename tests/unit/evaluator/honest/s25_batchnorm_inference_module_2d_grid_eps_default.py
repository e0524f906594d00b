# honest: BatchNorm2d in inference held as the reference's own nn.BatchNorm2d (its running statistics set the same way under torch.no_grad()), one program per (sample, channel) plane and HW block on a 2-D grid, per-channel scalars loaded in the kernel, eps as a constexpr default. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_infer_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW,
                    BLOCK: tl.constexpr, EPS: tl.constexpr = 1e-5):
    plane = tl.program_id(0)          # n * C + c
    blk = tl.program_id(1)
    c = plane % C
    scale = tl.load(w_ptr + c) / tl.sqrt(tl.load(var_ptr + c) + EPS)
    shift = tl.load(b_ptr + c) - tl.load(mean_ptr + c) * scale
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        BLOCK = 256
        grid = (N * C, triton.cdiv(H * W, BLOCK))
        bn_infer_kernel[grid](x, y, self.bn.running_mean, self.bn.running_var, self.bn.weight,
                              self.bn.bias, C, H * W, BLOCK=BLOCK)
        return y
