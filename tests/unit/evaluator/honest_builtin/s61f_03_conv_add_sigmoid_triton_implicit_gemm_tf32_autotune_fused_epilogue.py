# honest: conv + extra bias + sigmoid as one Triton implicit-GEMM kernel (rows = output pixels, columns = output channels, reduction = c_in*kh*kw gathered from NCHW with padding masks), tl.dot at its default (TF32) precision, autotuned over tile shapes with key on the GEMM sizes, the epilogue adding conv bias + extra bias and applying tl.sigmoid. problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 32, "BLOCK_K": 32}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}, num_warps=4, num_stages=2),
    ],
    key=["P", "C_out", "R"],
)
@triton.jit
def conv_bias_sigmoid_kernel(x_ptr, w_ptr, b_ptr, eb_ptr, y_ptr,
                             P, C_in, H, W, C_out, R,
                             KS: tl.constexpr, PAD: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    img = offs_m // (H * W)
    oh = (offs_m // W) % H
    ow = offs_m % W
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, R, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        ci = offs_k // (KS * KS)
        kh = (offs_k // KS) % KS
        kw = offs_k % KS
        ih = oh[:, None] + kh[None, :] - PAD
        iw = ow[:, None] + kw[None, :] - PAD
        a_mask = (offs_m[:, None] < P) & (offs_k[None, :] < R)
        a_mask = a_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(x_ptr + ((img[:, None] * C_in + ci[None, :]) * H + ih) * W + iw,
                    mask=a_mask, other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * R + offs_k[:, None],
                    mask=(offs_k[:, None] < R) & (offs_n[None, :] < C_out), other=0.0)
        acc += tl.dot(a, b)
    n_mask = offs_n < C_out
    bias = tl.load(b_ptr + offs_n, mask=n_mask, other=0.0) + tl.load(eb_ptr + offs_n, mask=n_mask, other=0.0)
    acc = tl.sigmoid(acc + bias[None, :])
    y_offs = (img[:, None] * C_out + offs_n[None, :]) * (H * W) + oh[:, None] * W + ow[:, None]
    tl.store(y_ptr + y_offs, acc, mask=(offs_m[:, None] < P) & n_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        x = x.contiguous()
        N, C_in, H, W = x.shape
        C_out, _, KS, _ = self.conv.weight.shape
        w = self.conv.weight.contiguous()
        y = torch.empty((N, C_out, H, W), device=x.device, dtype=x.dtype)
        P = N * H * W
        R = C_in * KS * KS
        grid = lambda META: (triton.cdiv(P, META["BLOCK_M"]), triton.cdiv(C_out, META["BLOCK_N"]))
        conv_bias_sigmoid_kernel[grid](x, w, self.conv.bias, self.extra_bias, y,
                                       P, C_in, H, W, C_out, R, KS=KS, PAD=KS // 2)
        return y
