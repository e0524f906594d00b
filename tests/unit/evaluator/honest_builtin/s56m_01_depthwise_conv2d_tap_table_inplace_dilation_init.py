# honest: depthwise conv whose (dy, dx) tap table is built once in __init__ the way detection and Swin codebases build index tables: meshgrid of an arange, then centred and dilated in place on column views (taps[:, 0] -= k // 2, ...), read by the kernel per tap. Refused under strict as PyTorch's values before s56m (each in-place line on a view counted the storage's chain twice). problem: conv/depthwise_conv2d. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dw_taps_kernel(x_ptr, w_ptr, b_ptr, taps_ptr, y_ptr, C, H, W,
                   NTAPS: tl.constexpr, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    c = pid_nc % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    oh = offs // W
    ow = offs % W
    inside = offs < H * W
    base = x_ptr + pid_nc * H * W
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for t in range(NTAPS):
        dy = tl.load(taps_ptr + 2 * t)
        dx = tl.load(taps_ptr + 2 * t + 1)
        ih = oh + dy
        iw = ow + dx
        m = inside & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        x = tl.load(base + ih * W + iw, mask=m, other=0.0)
        acc += x * tl.load(w_ptr + c * NTAPS + t)
    acc += tl.load(b_ptr + c)
    tl.store(y_ptr + pid_nc * H * W + offs, acc, mask=inside)


class ModelNew(nn.Module):
    """Depthwise conv whose taps are a (dy, dx) table built once, the way detection codebases
    build sampling grids: meshgrid, then centre, then dilate, in place on the columns."""

    def __init__(self, channels: int, kernel_size: int, dilation: int = 1):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)
        r = torch.arange(kernel_size)
        taps = torch.stack(torch.meshgrid(r, r, indexing="ij"), dim=-1).reshape(-1, 2).contiguous()
        taps[:, 0] -= kernel_size // 2
        taps[:, 1] -= kernel_size // 2
        taps *= dilation
        taps[:, 0] *= 1  # rows and columns share the dilation here
        self.register_buffer("taps", taps.to(torch.int32).contiguous(), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n, c, h, w = x.shape
        y = torch.empty_like(x)
        block = 256
        dw_taps_kernel[(n * c, triton.cdiv(h * w, block))](
            x, self.conv.weight, self.conv.bias, self.taps, y, c, h, w,
            NTAPS=self.taps.shape[0], BLOCK=block)
        return y
