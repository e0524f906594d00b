# honest: inference BatchNorm launched once per image from a Python loop (x[n], y[n] 3-D views), each launch handed the four per-channel tensors (weight, bias, running_mean, running_var), the view's channel and spatial strides and eps; one program per (channel, spatial block) folds the statistics into scale/shift in float32, the way simple ports of F.batch_norm begin. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bn_infer_image(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, var_ptr, HW, W,
                    stride_xc, stride_xh, stride_xw, stride_yc, stride_yh, stride_yw, eps,
                    BLOCK: tl.constexpr):
    c = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    h = offs // W
    w_ = offs % W
    scale = tl.load(w_ptr + c).to(tl.float32) / tl.sqrt(tl.load(var_ptr + c).to(tl.float32) + eps)
    shift = tl.load(b_ptr + c).to(tl.float32) - tl.load(mean_ptr + c).to(tl.float32) * scale
    x = tl.load(x_ptr + c * stride_xc + h * stride_xh + w_ * stride_xw, mask=mask, other=0.0)
    y = x.to(tl.float32) * scale + shift
    tl.store(y_ptr + c * stride_yc + h * stride_yh + w_ * stride_yw, y.to(y_ptr.dtype.element_ty), mask=mask)


def batch_norm_inference(x, weight, bias, running_mean, running_var, eps):
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    BLOCK = 256
    grid = (C, triton.cdiv(H * W, BLOCK))
    for n in range(N):
        xn, yn = x[n], y[n]
        _bn_infer_image[grid](xn, yn, weight, bias, running_mean, running_var, H * W, W,
                              xn.stride(0), xn.stride(1), xn.stride(2),
                              yn.stride(0), yn.stride(1), yn.stride(2), eps, BLOCK=BLOCK)
    return y


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():  # the statistics and affine the problem's model has
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        bn = self.bn
        return batch_norm_inference(x, bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.eps)
