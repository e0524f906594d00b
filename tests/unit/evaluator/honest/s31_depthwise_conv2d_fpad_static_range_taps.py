# honest: a depthwise 3x3 convolution as people write it for KernelBench: the input zero-padded once on the host with F.pad (so the kernel needs no border masks in the taps), a 2-D tile of output pixels per program (rows as offs_h[:, None], columns as offs_w[None, :]) on a (batch*channels, tiles_h, tiles_w) grid, the taps unrolled with `for kh in tl.static_range(KS):` / `for kw in tl.static_range(KS):`, one scalar weight load per tap, the bias added once, the nn.Conv2d module kept for its parameters (weight read through .view(C, KS*KS)), triton.cdiv for the grid. problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def dwconv2d_kernel(xp_ptr, w_ptr, b_ptr, y_ptr, C, H, W, HP, WP,
                    KS: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    nc = tl.program_id(0)
    c = nc % C
    offs_h = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    offs_w = tl.program_id(2) * BLOCK_W + tl.arange(0, BLOCK_W)
    out_mask = (offs_h[:, None] < H) & (offs_w[None, :] < W)
    x_base = xp_ptr + nc.to(tl.int64) * HP * WP
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for kh in tl.static_range(KS):
        for kw in tl.static_range(KS):
            wv = tl.load(w_ptr + c * KS * KS + kh * KS + kw)
            xv = tl.load(x_base + (offs_h[:, None] + kh) * WP + (offs_w[None, :] + kw), mask=out_mask, other=0.0)
            acc += xv * wv
    acc += tl.load(b_ptr + c)
    y_base = y_ptr + nc.to(tl.int64) * H * W
    tl.store(y_base + offs_h[:, None] * W + offs_w[None, :], acc, mask=out_mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)
        self.kernel_size = kernel_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, H, W = x.shape
        ks = self.kernel_size
        pad = ks // 2
        xp = F.pad(x, (pad, pad, pad, pad)).contiguous()
        HP, WP = xp.shape[2], xp.shape[3]
        y = torch.empty((N, C, H, W), device=x.device, dtype=x.dtype)
        w = self.conv.weight.view(C, ks * ks).contiguous()
        BLOCK_H, BLOCK_W = 16, 32
        grid = (N * C, triton.cdiv(H, BLOCK_H), triton.cdiv(W, BLOCK_W))
        dwconv2d_kernel[grid](xp, w, self.conv.bias, y, C, H, W, HP, WP,
                              KS=ks, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
        return y
