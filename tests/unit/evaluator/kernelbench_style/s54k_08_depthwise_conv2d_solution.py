# An honest Triton ModelNew for KernelBench level1/82_conv_depthwise_2D_square_input_square_kernel: one program per (batch * channel, BLOCK_H x BLOCK_W output tile), a 2-D tile of offsets, the KSIZE x KSIZE taps unrolled with tl.static_range and each tap's scalar weight loaded once, masked loads for padding and the ragged edge, the weight read as (C, 1, K, K) through .view(C, K * K).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def depthwise_conv2d_kernel(x_ptr, w_ptr, y_ptr, C, H, W, OH, OW, conv_stride, padding,
                            KSIZE: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_h = tl.program_id(1)
    pid_w = tl.program_id(2)
    c = pid_nc % C
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    out_mask = (oh[:, None] < OH) & (ow[None, :] < OW)
    x_base = x_ptr + pid_nc * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for kh in tl.static_range(KSIZE):
        ih = oh * conv_stride - padding + kh
        for kw in tl.static_range(KSIZE):
            iw = ow * conv_stride - padding + kw
            m = out_mask & (ih[:, None] >= 0) & (ih[:, None] < H) & (iw[None, :] >= 0) & (iw[None, :] < W)
            xv = tl.load(x_base + ih[:, None] * W + iw[None, :], mask=m, other=0.0)
            wv = tl.load(w_ptr + c * KSIZE * KSIZE + kh * KSIZE + kw)
            acc += xv * wv
    tl.store(y_ptr + pid_nc * OH * OW + oh[:, None] * OW + ow[None, :], acc, mask=out_mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int, stride: int = 1, padding: int = 0, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                                groups=in_channels, bias=bias)
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        K = self.kernel_size
        OH = (H + 2 * self.padding - K) // self.stride + 1
        OW = (W + 2 * self.padding - K) // self.stride + 1
        w = self.conv2d.weight.contiguous().view(C, K * K)
        y = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_H, BLOCK_W = 16, 32
        grid = (N * C, triton.cdiv(OH, BLOCK_H), triton.cdiv(OW, BLOCK_W))
        depthwise_conv2d_kernel[grid](x, w, y, C, H, W, OH, OW, self.stride, self.padding,
                                      KSIZE=K, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W)
        if self.conv2d.bias is not None:
            y += self.conv2d.bias.view(1, C, 1, 1)
        return y
