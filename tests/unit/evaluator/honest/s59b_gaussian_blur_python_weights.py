# honest: Gaussian blur with the 9x9 weights computed in Python (math.exp over a list, normalised, the outer product as nested lists lifted by torch.tensor) and a direct Triton convolution, one program per (image, channel) over a padded block. problem: gaussian_blur
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def gaussian_kernel_2d(ksize, sigma):
    center = (ksize - 1) / 2
    g = [math.exp(-((i - center) ** 2) / (2 * sigma * sigma)) for i in range(ksize)]
    total = sum(g)
    g = [v / total for v in g]
    return [[a * b for b in g] for a in g]


@triton.jit
def blur_kernel(x_ptr, w_ptr, out_ptr, H, W, K: tl.constexpr, PAD: tl.constexpr,
                BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_H)[:, None]
    cols = tl.arange(0, BLOCK_W)[None, :]
    base = pid * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for i in range(K):
        for j in range(K):
            r = rows + i - PAD
            c = cols + j - PAD
            m = (r >= 0) & (r < H) & (c >= 0) & (c < W)
            x = tl.load(x_ptr + base + r * W + c, mask=m, other=0.0)
            acc += x * tl.load(w_ptr + i * K + j)
    tl.store(out_ptr + base + rows * W + cols, acc, mask=(rows < H) & (cols < W))


class ModelNew(nn.Module):
    def __init__(self, channels, ksize=9, sigma=2.0):
        super().__init__()
        self.ksize = ksize
        self.register_buffer("weight", torch.tensor(gaussian_kernel_2d(ksize, sigma), dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        out = torch.empty_like(x)
        blur_kernel[(N * C,)](x, self.weight, out, H, W, K=self.ksize, PAD=self.ksize // 2,
                              BLOCK_H=triton.next_power_of_2(H), BLOCK_W=triton.next_power_of_2(W))
        return out
