# An honest Triton ModelNew for KernelBench level1/45_Average_Pooling_2D: a 2D output tile (BLOCK_H x BLOCK_W) per program per (n, c) plane, the KxK window unrolled with tl.static_range, zero padding counted in the divisor (count_include_pad=True, AvgPool2d's default), ceil_mode off.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def avgpool2d_kernel(x_ptr, y_ptr, H, W, OH, OW,
                     KS: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    plane = tl.program_id(0)
    pid_h = tl.program_id(1)
    pid_w = tl.program_id(2)
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    out_mask = (oh[:, None] < OH) & (ow[None, :] < OW)
    x_base = x_ptr + plane.to(tl.int64) * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for kh in tl.static_range(KS):
        ih = oh * STRIDE - PAD + kh
        h_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(KS):
            iw = ow * STRIDE - PAD + kw
            w_ok = (iw >= 0) & (iw < W)
            m = out_mask & h_ok[:, None] & w_ok[None, :]
            acc += tl.load(x_base + ih[:, None] * W + iw[None, :], mask=m, other=0.0).to(tl.float32)
    y = acc / (KS * KS)
    tl.store(y_ptr + plane.to(tl.int64) * OH * OW + oh[:, None] * OW + ow[None, :], y, mask=out_mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return nn.functional.avg_pool2d(x, self.kernel_size, self.stride, self.padding)
        N, C, H, W = x.shape
        x = x.contiguous()
        OH = (H + 2 * self.padding - self.kernel_size) // self.stride + 1
        OW = (W + 2 * self.padding - self.kernel_size) // self.stride + 1
        y = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_H, BLOCK_W = 8, 32
        grid = (N * C, triton.cdiv(OH, BLOCK_H), triton.cdiv(OW, BLOCK_W))
        avgpool2d_kernel[grid](x, y, H, W, OH, OW, KS=self.kernel_size, STRIDE=self.stride, PAD=self.padding,
                               BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W)
        return y
