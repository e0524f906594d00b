# An honest ModelNew for KernelBench level2/46_Conv2d_Subtract_Tanh_Subtract_AvgPool; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    # tanh from exp of a non-positive argument (no overflow)
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(x >= 0, t, -t)


@triton.jit
def sub_tanh_sub_avgpool_kernel(x_ptr, y_ptr, H, W, OH, OW, s1, s2,
                                K: tl.constexpr, BLOCK_W: tl.constexpr):
    # grid: (N*C*OH, cdiv(OW, BLOCK_W)); one output row segment per program
    pid = tl.program_id(0)
    pw = tl.program_id(1)
    oh = pid % OH
    nc = pid // OH
    ow = pw * BLOCK_W + tl.arange(0, BLOCK_W)
    m = ow < OW
    acc = tl.zeros([BLOCK_W], dtype=tl.float32)
    for kh in tl.static_range(K):
        for kw in tl.static_range(K):
            ih = oh * K + kh
            iw = ow * K + kw
            v = tl.load(x_ptr + (nc * H + ih) * W + iw, mask=m, other=0.0)
            acc += _tanh(v - s1) - s2
    tl.store(y_ptr + (nc * OH + oh) * OW + ow, acc / (K * K), mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, subtract1_value, subtract2_value, kernel_size_pool):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract1_value = subtract1_value
        self.subtract2_value = subtract2_value
        self.kernel_size_pool = kernel_size_pool

    def forward(self, x):
        x = F.conv2d(x, self.conv.weight, self.conv.bias)
        if not x.is_contiguous():
            x = x.contiguous()
        N, C, H, W = x.shape
        K = self.kernel_size_pool
        OH, OW = H // K, W // K
        y = torch.empty((N, C, OH, OW), dtype=x.dtype, device=x.device)
        BLOCK_W = 16
        grid = (N * C * OH, triton.cdiv(OW, BLOCK_W))
        sub_tanh_sub_avgpool_kernel[grid](x, y, H, W, OH, OW, self.subtract1_value,
                                          self.subtract2_value, K=K, BLOCK_W=BLOCK_W)
        return y
