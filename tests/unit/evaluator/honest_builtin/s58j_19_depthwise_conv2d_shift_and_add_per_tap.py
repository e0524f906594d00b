# honest: depthwise conv2d as shift-and-add, one launch per filter tap (kh, kw) accumulating into the output, handed the tap's index and its signed shifts dh = kh - pad, dw = kw - pad; bias added by the first tap. problem: conv/depthwise_conv2d. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _tap(x_ptr, w_ptr, b_ptr, y_ptr, n_rows, C, H, W, tap, dh, dw, KK,
         FIRST: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)  # (n, c, h) rows
    nc = r // H
    h = r % H
    c = nc % C
    wcol = tl.arange(0, BLOCK)
    ih = h + dh
    iw = wcol + dw
    rows_ok = r < n_rows
    ok = rows_ok[:, None] & (iw[None, :] >= 0) & (iw[None, :] < W) & ((ih >= 0) & (ih < H))[:, None]
    xv = tl.load(x_ptr + (nc * H + ih)[:, None] * W + iw[None, :], mask=ok, other=0.0)
    wt = tl.load(w_ptr + c * KK + tap, mask=rows_ok, other=0.0)
    out_ptr = y_ptr + r[:, None] * W + wcol[None, :]
    out_ok = rows_ok[:, None] & (wcol[None, :] < W)
    if FIRST:
        acc = xv * wt[:, None] + tl.load(b_ptr + c, mask=rows_ok, other=0.0)[:, None]
    else:
        acc = tl.load(out_ptr, mask=out_ok, other=0.0) + xv * wt[:, None]
    tl.store(out_ptr, acc, mask=out_ok)


class ModelNew(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        w, b = self.conv.weight, self.conv.bias
        k = w.shape[-1]
        pad = self.conv.padding[0]
        y = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(W)
        for kh in range(k):
            for kw in range(k):
                tap = kh * k + kw
                _tap[(triton.cdiv(N * C * H, 16),)](x, w, b, y, N * C * H, C, H, W, tap, kh - pad, kw - pad,
                                                    k * k, FIRST=(tap == 0), ROWS=16, BLOCK=BLOCK)
        return y
