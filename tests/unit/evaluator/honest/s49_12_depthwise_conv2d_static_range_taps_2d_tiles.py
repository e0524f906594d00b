# honest: depthwise 3x3 conv2d (padding k//2, bias) as a direct convolution: program per (batch*channel, tile of rows, tile of cols), the KxK taps unrolled with tl.static_range, zero padding through load masks, fp32 accumulate; the module keeps nn.Conv2d for its parameters (same init as the reference). problem: conv/depthwise_conv2d
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dwconv2d_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C, H, W,
    sxn, sxc, sxh, sxw,
    syn, syc, syh, syw,
    KS: tl.constexpr, PAD: tl.constexpr, HAS_BIAS: tl.constexpr,
    BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    pid_nc = tl.program_id(0)
    pid_h = tl.program_id(1)
    pid_w = tl.program_id(2)
    n = pid_nc // C
    c = pid_nc % C
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    x_base = x_ptr + n.to(tl.int64) * sxn + c.to(tl.int64) * sxc
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for kh in tl.static_range(KS):
        ih = oh + (kh - PAD)
        h_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(KS):
            iw = ow + (kw - PAD)
            w_ok = (iw >= 0) & (iw < W)
            m = h_ok[:, None] & w_ok[None, :]
            xv = tl.load(x_base + ih[:, None] * sxh + iw[None, :] * sxw, mask=m, other=0.0)
            wv = tl.load(w_ptr + c * KS * KS + kh * KS + kw)
            acc += xv.to(tl.float32) * wv
    if HAS_BIAS:
        acc += tl.load(b_ptr + c)
    out_mask = (oh[:, None] < H) & (ow[None, :] < W)
    y_base = y_ptr + n.to(tl.int64) * syn + c.to(tl.int64) * syc
    tl.store(y_base + oh[:, None] * syh + ow[None, :] * syw, acc, mask=out_mask)


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias) -> torch.Tensor:
    N, C, H, W = x.shape
    KS = weight.shape[-1]
    assert weight.shape == (C, 1, KS, KS) and KS % 2 == 1
    y = torch.empty((N, C, H, W), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 16, 32
    grid = (N * C, triton.cdiv(H, BLOCK_H), triton.cdiv(W, BLOCK_W))
    w = weight.contiguous()
    dwconv2d_kernel[grid](
        x, w, bias if bias is not None else w, y,
        C, H, W,
        *x.stride(), *y.stride(),
        KS=KS, PAD=KS // 2, HAS_BIAS=bias is not None,
        BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4,
    )
    return y


class ModelNew(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return depthwise_conv2d(x, self.conv.weight, self.conv.bias)
