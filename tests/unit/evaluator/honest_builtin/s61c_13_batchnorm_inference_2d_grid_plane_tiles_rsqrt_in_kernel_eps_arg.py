# honest: BatchNorm2d inference with a 2-D grid (N*C planes, HW tiles): each program loads its channel's running mean/var, weight and bias, forms weight * rsqrt(var + eps) in the kernel and writes (x - mean) * scale + bias; eps from the module. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_infer_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW, eps,
                    BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    pid_hw = tl.program_id(1)
    c = plane % C
    mean = tl.load(mean_ptr + c)
    var = tl.load(var_ptr + c)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    scale = w * tl.math.rsqrt(var + eps)
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(y_ptr + base + offs, (x - mean) * scale + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        HW = H * W
        BLOCK = 512
        grid = (N * C, triton.cdiv(HW, BLOCK))
        bn_infer_kernel[grid](x, y, self.bn.running_mean, self.bn.running_var, self.bn.weight,
                              self.bn.bias, C, HW, self.bn.eps, BLOCK=BLOCK)
        return y
