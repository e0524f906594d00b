# An honest ModelNew for KernelBench level1/87_conv_pointwise_2D; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pointwise_conv_kernel(x_ptr, w_ptr, y_ptr, C_in, C_out, HW,
                          BLOCK_CO: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_CI: tl.constexpr):
    # y[n, co, p] = sum_ci w[co, ci] * x[n, ci, p]: a GEMM per image
    n = tl.program_id(0)
    pid_co = tl.program_id(1)
    pid_p = tl.program_id(2)
    co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    acc = tl.zeros((BLOCK_CO, BLOCK_P), dtype=tl.float32)
    for ci0 in range(0, C_in, BLOCK_CI):
        ci = ci0 + tl.arange(0, BLOCK_CI)
        w = tl.load(w_ptr + co[:, None] * C_in + ci[None, :],
                    mask=(co[:, None] < C_out) & (ci[None, :] < C_in), other=0.0)
        x = tl.load(x_ptr + (n * C_in + ci[:, None]) * HW + p[None, :],
                    mask=(ci[:, None] < C_in) & (p[None, :] < HW), other=0.0)
        acc += tl.dot(w, x)
    tl.store(y_ptr + (n * C_out + co[:, None]) * HW + p[None, :], acc,
             mask=(co[:, None] < C_out) & (p[None, :] < HW))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv1d = nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, padding=0, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C_in, H, W = x.shape
        w = self.conv1d.weight.view(self.conv1d.out_channels, C_in)
        C_out = w.shape[0]
        y = torch.empty((N, C_out, H, W), device=x.device, dtype=x.dtype)
        grid = (N, triton.cdiv(C_out, 16), triton.cdiv(H * W, 32))
        pointwise_conv_kernel[grid](x, w, y, C_in, C_out, H * W, BLOCK_CO=16, BLOCK_P=32, BLOCK_CI=16)
        if self.conv1d.bias is not None:
            y += self.conv1d.bias.view(1, -1, 1, 1)
        return y
