# An honest ModelNew for KernelBench level1/45_Average_Pooling_2D; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def avg_pool2d_kernel(x_ptr, y_ptr, H, W, OH, OW, stride, padding,
                      KS: tl.constexpr, BLOCK_KW: tl.constexpr):
    # one output pixel per program; a row of the window per iteration
    pid = tl.program_id(0).to(tl.int64)  # KernelBench's input has 4.3e9 elements: int64 offsets
    ow = pid % OW
    oh = (pid // OW) % OH
    nc = pid // (OW * OH)
    h0 = oh * stride - padding
    w0 = ow * stride - padding
    kw = tl.arange(0, BLOCK_KW)
    acc = tl.zeros([BLOCK_KW], dtype=tl.float32)
    for kh in range(KS):
        h = h0 + kh + kw * 0  # a vector, like w
        w = w0 + kw
        m = (kw < KS) & (h >= 0) & (h < H) & (w >= 0) & (w < W)
        acc += tl.load(x_ptr + (nc * H + h) * W + w, mask=m, other=0.0)
    # count_include_pad=True: always divide by the full window
    tl.store(y_ptr + pid, tl.sum(acc, axis=0) / (KS * KS))


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride or kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        k, s, p = self.kernel_size, self.stride, self.padding
        OH = (H + 2 * p - k) // s + 1
        OW = (W + 2 * p - k) // s + 1
        y = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
        avg_pool2d_kernel[(y.numel(),)](x, y, H, W, OH, OW, s, p, KS=k,
                                        BLOCK_KW=triton.next_power_of_2(k))
        return y
