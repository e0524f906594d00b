# An honest Triton ModelNew for KernelBench level1/42_Max_Pooling_2D: one program per (n*c, block of output pixels), a static loop over the window with dilation, -inf padding, the pooling parameters as tl.constexpr.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def maxpool2d_kernel(
    x_ptr, out_ptr, H, W, OH, OW,
    KS: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr, DIL: tl.constexpr,
    BLOCK: tl.constexpr,
):
    pid_nc = tl.program_id(0)
    pid_p = tl.program_id(1)
    offs = pid_p * BLOCK + tl.arange(0, BLOCK)
    mask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    x_base = x_ptr + pid_nc * H * W
    acc = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for kh in tl.static_range(KS):
        ih = oh * STRIDE - PAD + kh * DIL
        h_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(KS):
            iw = ow * STRIDE - PAD + kw * DIL
            valid = mask & h_ok & (iw >= 0) & (iw < W)
            v = tl.load(x_base + ih * W + iw, mask=valid, other=float("-inf"))
            acc = tl.maximum(acc, v)
    tl.store(out_ptr + pid_nc * OH * OW + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        k, s, p, d = self.kernel_size, self.stride, self.padding, self.dilation
        OH = (H + 2 * p - d * (k - 1) - 1) // s + 1
        OW = (W + 2 * p - d * (k - 1) - 1) // s + 1
        out = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK = 256
        grid = (N * C, triton.cdiv(OH * OW, BLOCK))
        maxpool2d_kernel[grid](x, out, H, W, OH, OW, KS=k, STRIDE=s, PAD=p, DIL=d, BLOCK=BLOCK)
        return out
