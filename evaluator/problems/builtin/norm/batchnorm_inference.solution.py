import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def batchnorm_infer_kernel(x_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, out_ptr, channels, hw, eps,
                           BLOCK: tl.constexpr):
    plane = tl.program_id(0)  # one (sample, channel) plane of hw elements
    c = plane % channels
    scale = tl.load(w_ptr + c) / tl.sqrt(tl.load(var_ptr + c) + eps)
    shift = tl.load(b_ptr + c) - tl.load(mean_ptr + c) * scale
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < hw
    x = tl.load(x_ptr + plane * hw + offs, mask=mask)
    tl.store(out_ptr + plane * hw + offs, x * scale + shift, mask=mask)


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
        out = torch.empty_like(x)
        n, c, h, w = x.shape
        BLOCK = 1024
        batchnorm_infer_kernel[(n * c, triton.cdiv(h * w, BLOCK))](
            x, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias, out,
            c, h * w, self.bn.eps, BLOCK=BLOCK)
        return out
