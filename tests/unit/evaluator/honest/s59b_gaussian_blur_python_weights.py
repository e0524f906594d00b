# honest: separable Gaussian blur with the 1-D weights computed in Python (math.exp over a list comprehension, normalised by their sum, lifted by torch.tensor) and two Triton passes, rows then columns, one program per (image, channel). problem: gaussian_blur
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def gaussian_weights(ksize, sigma):
    center = (ksize - 1) / 2
    g = [math.exp(-((i - center) ** 2) / (2 * sigma * sigma)) for i in range(ksize)]
    total = sum(g)
    return [v / total for v in g]


@triton.jit
def blur_pass_kernel(x_ptr, w_ptr, out_ptr, H, W, K: tl.constexpr, PAD: tl.constexpr, ALONG_ROWS: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_H)[:, None]
    cols = tl.arange(0, BLOCK_W)[None, :]
    base = pid * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for i in range(K):
        if ALONG_ROWS:
            r = rows
            c = cols + i - PAD
        else:
            r = rows + i - PAD
            c = cols
        m = (r >= 0) & (r < H) & (c >= 0) & (c < W)
        x = tl.load(x_ptr + base + r * W + c, mask=m, other=0.0)
        acc += x * tl.load(w_ptr + i)
    tl.store(out_ptr + base + rows * W + cols, acc, mask=(rows < H) & (cols < W))


class ModelNew(nn.Module):
    def __init__(self, channels, ksize=17, sigma=3.0):
        super().__init__()
        self.ksize = ksize
        self.register_buffer("weight", torch.tensor(gaussian_weights(ksize, sigma), dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        tmp = torch.empty_like(x)
        out = torch.empty_like(x)
        meta = dict(K=self.ksize, PAD=self.ksize // 2, BLOCK_H=triton.next_power_of_2(H), BLOCK_W=triton.next_power_of_2(W))
        blur_pass_kernel[(N * C,)](x, self.weight, tmp, H, W, ALONG_ROWS=True, **meta)
        blur_pass_kernel[(N * C,)](tmp, self.weight, out, H, W, ALONG_ROWS=False, **meta)
        return out
