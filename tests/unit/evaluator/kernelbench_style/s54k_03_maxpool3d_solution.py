# An honest Triton ModelNew for KernelBench level1/43_Max_Pooling_3D: one program per BLOCK of flattened outputs, the output index unravelled with // and %, tl.static_range over the window, padding and dilation as masked loads with other=-inf, output sizes computed on the host with PyTorch's floor formula, stride defaulting to kernel_size.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def maxpool3d_kernel(x_ptr, out_ptr, total, D, H, W, OD, OH, OW,
                     stride, padding, dilation,
                     KSIZE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    t = offs // OW
    oh = t % OH
    t = t // OH
    od = t % OD
    nc = t // OD
    base = nc * (D * H * W)
    acc = tl.full((BLOCK,), float("-inf"), tl.float32)
    for kd in tl.static_range(KSIZE):
        id_ = od * stride - padding + kd * dilation
        ok_d = (id_ >= 0) & (id_ < D)
        for kh in tl.static_range(KSIZE):
            ih = oh * stride - padding + kh * dilation
            ok_h = ok_d & (ih >= 0) & (ih < H)
            for kw in tl.static_range(KSIZE):
                iw = ow * stride - padding + kw * dilation
                ok = ok_h & (iw >= 0) & (iw < W) & mask
                v = tl.load(x_ptr + base + (id_ * H + ih) * W + iw, mask=ok, other=float("-inf"))
                acc = tl.maximum(acc, v)
    tl.store(out_ptr + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, dilation: int = 1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation

    def _out(self, size):
        return (size + 2 * self.padding - self.dilation * (self.kernel_size - 1) - 1) // self.stride + 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, D, H, W = x.shape
        OD, OH, OW = self._out(D), self._out(H), self._out(W)
        out = torch.empty((N, C, OD, OH, OW), device=x.device, dtype=x.dtype)
        total = out.numel()
        BLOCK = 256
        grid = (triton.cdiv(total, BLOCK),)
        maxpool3d_kernel[grid](x, out, total, D, H, W, OD, OH, OW, self.stride, self.padding, self.dilation,
                               KSIZE=self.kernel_size, BLOCK=BLOCK)
        return out
