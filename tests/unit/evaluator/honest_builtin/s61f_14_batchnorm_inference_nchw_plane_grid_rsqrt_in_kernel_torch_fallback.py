# honest: inference BatchNorm2d as a Triton kernel over a (N*C planes, HW blocks) grid, each program loading its channel's running mean, running var, weight and bias as scalars and computing (x - mean) * rsqrt(var + eps) * weight + bias, eps read from the module; torch.empty_like output, .contiguous() glue and a torch fallback off CUDA. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bn_infer_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW, eps,
                    BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    c = plane % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    mean = tl.load(mean_ptr + c)
    var = tl.load(var_ptr + c)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    scale = w * tl.rsqrt(var + eps)
    x = tl.load(x_ptr + plane * HW + offs, mask=mask, other=0.0)
    tl.store(y_ptr + plane * HW + offs, (x - mean) * scale + b, mask=mask)


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
        bn = self.bn
        if not x.is_cuda:
            return F.batch_norm(x, bn.running_mean, bn.running_var, bn.weight, bn.bias,
                                training=False, eps=bn.eps)
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        BLOCK = 1024
        grid = (N * C, triton.cdiv(H * W, BLOCK))
        bn_infer_kernel[grid](x, y, bn.running_mean, bn.running_var, bn.weight, bn.bias,
                              C, H * W, bn.eps, BLOCK=BLOCK)
        return y
