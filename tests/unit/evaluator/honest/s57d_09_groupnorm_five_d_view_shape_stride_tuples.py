# honest: GroupNorm on the (N, G, C/G, H, W) view of the input, the view's shape and the input's and output's five strides handed as three tuple arguments (Triton 3's tuple parameters, indexed in the kernel) instead of fifteen ints; one program per (image, group) does a two-pass mean / centred variance over the group's C/G*H*W elements, then the per-channel affine. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _group_norm_fwd(X, Y, W, B, shape, xs, ys, eps, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    CG = shape[2]
    H = shape[3]
    Wd = shape[4]
    HW = H * Wd
    numel = CG * HW
    x_base = X + n * xs[0] + g * xs[1]
    y_base = Y + n * ys[0] + g * ys[1]
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, numel, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < numel
        c = idx // HW
        hw = idx % HW
        off = c * xs[2] + (hw // Wd) * xs[3] + (hw % Wd) * xs[4]
        acc += tl.load(x_base + off, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / numel
    acc2 = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, numel, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < numel
        c = idx // HW
        hw = idx % HW
        off = c * xs[2] + (hw // Wd) * xs[3] + (hw % Wd) * xs[4]
        d = tl.load(x_base + off, mask=m, other=0.0).to(tl.float32) - mean
        acc2 += tl.where(m, d * d, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(acc2, axis=0) / numel + eps)
    for start in range(0, numel, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < numel
        c = idx // HW
        hw = idx % HW
        off = c * xs[2] + (hw // Wd) * xs[3] + (hw % Wd) * xs[4]
        x = tl.load(x_base + off, mask=m, other=0.0).to(tl.float32)
        ch = g * CG + c
        w = tl.load(W + ch, mask=m, other=1.0)
        b = tl.load(B + ch, mask=m, other=0.0)
        y = (x - mean) * rstd * w + b
        yoff = c * ys[2] + (hw // Wd) * ys[3] + (hw % Wd) * ys[4]
        tl.store(y_base + yoff, y.to(Y.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        N, C, H, W = x.shape
        G = self.gn.num_groups
        y = torch.empty_like(x)
        xv = x.view(N, G, C // G, H, W)
        yv = y.view(N, G, C // G, H, W)
        BLOCK = min(4096, triton.next_power_of_2((C // G) * H * W))
        _group_norm_fwd[(N, G)](xv, yv, self.gn.weight, self.gn.bias, tuple(xv.shape), xv.stride(), yv.stride(),
                                self.gn.eps, BLOCK=BLOCK, num_warps=4)
        return y
