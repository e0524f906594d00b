# honest: conv2d + bias + ReLU as two Triton kernels, as KernelBench conv solutions often do it: an im2col kernel that gathers the padded 3x3 patches itself (one program per BLOCK_P output pixels x BLOCK_R of the C*KH*KW patch axis, zero where the tap falls in the padding) into a (N*OH*OW, C*KH*KW) column matrix, then a Triton GEMM of the columns against the weight viewed (OC, C*KH*KW) with a bias + ReLU epilogue writing NHWC, permuted back to NCHW with .permute(0, 3, 1, 2).contiguous(); stride and padding kept general. problem: conv/conv2d_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def im2col_kernel(x_ptr, col_ptr, C, H, W, OH, OW, P, R, stride, pad,
                  KH: tl.constexpr, KW: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_R: tl.constexpr):
    offs_p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_r = tl.program_id(1) * BLOCK_R + tl.arange(0, BLOCK_R)
    n = offs_p // (OH * OW)
    oh = (offs_p // OW) % OH
    ow = offs_p % OW
    c = offs_r // (KH * KW)
    kh = (offs_r // KW) % KH
    kw = offs_r % KW
    ih = oh[:, None] * stride - pad + kh[None, :]
    iw = ow[:, None] * stride - pad + kw[None, :]
    valid = (offs_p[:, None] < P) & (offs_r[None, :] < R)
    inside = valid & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    src = x_ptr + ((n[:, None] * C + c[None, :]) * H + ih) * W + iw
    vals = tl.load(src, mask=inside, other=0.0)
    tl.store(col_ptr + offs_p[:, None] * R + offs_r[None, :], vals, mask=valid)


@triton.jit
def gemm_bias_relu_kernel(a_ptr, w_ptr, bias_ptr, out_ptr, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    w_ptrs = w_ptr + offs_n[None, :] * K + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_n[None, :] < N) & (offs_k[:, None] < k_left), other=0.0)
        acc += tl.dot(a, w, input_precision="ieee")
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        x = x.contiguous()
        n, c, h, w = x.shape
        oc, _, kh, kw = self.conv.weight.shape
        stride, pad = self.conv.stride[0], self.conv.padding[0]
        oh = (h + 2 * pad - kh) // stride + 1
        ow = (w + 2 * pad - kw) // stride + 1
        P, R = n * oh * ow, c * kh * kw
        cols = torch.empty((P, R), device=x.device, dtype=torch.float32)
        BLOCK_P, BLOCK_R = 64, 64
        im2col_kernel[(triton.cdiv(P, BLOCK_P), triton.cdiv(R, BLOCK_R))](
            x, cols, c, h, w, oh, ow, P, R, stride, pad, KH=kh, KW=kw, BLOCK_P=BLOCK_P, BLOCK_R=BLOCK_R)
        w2 = self.conv.weight.reshape(oc, R).contiguous()
        out = torch.empty((P, oc), device=x.device, dtype=torch.float32)
        BM, BN, BK = 64, 64, 32
        gemm_bias_relu_kernel[(triton.cdiv(P, BM), triton.cdiv(oc, BN))](
            cols, w2, self.conv.bias, out, P, oc, R, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=4)
        return out.view(n, oh, ow, oc).permute(0, 3, 1, 2).contiguous()
