# honest: 3x3 conv + per-channel extra bias + sigmoid as one implicit-GEMM Triton kernel (M = N*H*W output pixels, N = out channels, K = Cin*3*3 gathered with index arithmetic and zero padding by masks; tl.dot, TF32 by default), conv bias and extra bias added and sigmoid applied in the epilogue; the module keeps the reference's nn.Conv2d and nn.Parameter(0.1 * torch.randn(C, 1, 1)) so the weights are the seeded build's. problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_add_sigmoid_kernel(x_ptr, w_ptr, b_ptr, eb_ptr, y_ptr,
                            NB, C_in, H, W, C_out, K_total,
                            KH: tl.constexpr, KW: tl.constexpr, PAD: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # output pixel index over N*H*W
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # output channel
    M = NB * H * W
    n_idx = offs_m // (H * W)
    hw = offs_m % (H * W)
    oh = hw // W
    ow = hw % W
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K_total, BLOCK_K):
        kk = k0 + tl.arange(0, BLOCK_K)
        ci = kk // (KH * KW)
        r = kk % (KH * KW)
        kh = r // KW
        kw = r % KW
        ih = oh[:, None] + kh[None, :] - PAD
        iw = ow[:, None] + kw[None, :] - PAD
        a_mask = (offs_m[:, None] < M) & (kk[None, :] < K_total) & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(x_ptr + ((n_idx[:, None] * C_in + ci[None, :]) * H + ih) * W + iw, mask=a_mask, other=0.0)
        b_mask = (kk[:, None] < K_total) & (offs_n[None, :] < C_out)
        b = tl.load(w_ptr + offs_n[None, :] * K_total + kk[:, None], mask=b_mask, other=0.0)
        acc += tl.dot(a, b)
    bias = tl.load(b_ptr + offs_n, mask=offs_n < C_out, other=0.0)
    extra = tl.load(eb_ptr + offs_n, mask=offs_n < C_out, other=0.0)
    z = acc + (bias + extra)[None, :]
    out = tl.sigmoid(z)
    y_off = ((n_idx[:, None] * C_out + offs_n[None, :]) * H + oh[:, None]) * W + ow[:, None]
    tl.store(y_ptr + y_off, out, mask=(offs_m[:, None] < M) & (offs_n[None, :] < C_out))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        NB, C_in, H, W = x.shape
        w = self.conv.weight.contiguous()
        C_out, _, KH, KW = w.shape
        y = torch.empty(NB, C_out, H, W, device=x.device, dtype=x.dtype)
        K_total = C_in * KH * KW
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 32, 32
        grid = (triton.cdiv(NB * H * W, BLOCK_M), triton.cdiv(C_out, BLOCK_N))
        conv_add_sigmoid_kernel[grid](x, w, self.conv.bias, self.extra_bias, y, NB, C_in, H, W, C_out, K_total,
                                      KH=KH, KW=KW, PAD=self.conv.padding[0],
                                      BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
        return y
