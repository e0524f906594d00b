# honest: cuDNN convolution through the nn.Conv2d submodule under @torch.no_grad(), then a Triton epilogue adding the (C, 1, 1) extra bias and applying sigmoid over the flat buffer: the layout tested with y.is_contiguous(memory_format=torch.channels_last) and passed as a CHANNELS_LAST constexpr that picks the channel index (offs % C or (offs // HW) % C), the output made with torch.empty_like(y, memory_format=torch.preserve_format), a 2-D grid (batch, blocks of C*H*W) with tl.program_id(axis=1). problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_sigmoid_kernel(
    y_ptr, bias_ptr, out_ptr,
    C, HW, per_sample,
    CHANNELS_LAST: tl.constexpr,
    BLOCK: tl.constexpr,
):
    n = tl.program_id(axis=0)
    pid = tl.program_id(axis=1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < per_sample
    if CHANNELS_LAST:
        c = offs % C
    else:
        c = (offs // HW) % C
    base = n.to(tl.int64) * per_sample
    y = tl.load(y_ptr + base + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    z = y + b
    tl.store(out_ptr + base + offs, tl.sigmoid(z), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        channels_last = y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous()
        if not (channels_last or y.is_contiguous()):
            y = y.contiguous()
        out = torch.empty_like(y, memory_format=torch.preserve_format)
        n, c, h, w = y.shape
        per_sample = c * h * w
        BLOCK = 1024
        grid = (n, triton.cdiv(per_sample, BLOCK))
        bias_sigmoid_kernel[grid](
            y, self.extra_bias, out, c, h * w, per_sample,
            CHANNELS_LAST=channels_last, BLOCK=BLOCK,
        )
        return out
