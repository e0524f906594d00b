# honest: a 3x3 convolution as an implicit GEMM in one Triton kernel (M = batch * H * W output pixels, N = out channels, K = in_channels * kh * kw): the nn.Conv2d kept as a submodule and its weight re-laid-out in __init__ as a (K, C_out) buffer (register_buffer("w_gemm", w.reshape(C_out, -1).t().contiguous())), each K index decoded into (ci, kh, kw) in the kernel, the input read through stride_xn, stride_xc, stride_xh, stride_xw with border masks, the output written NCHW through its strides, bias + ReLU fused. problem: conv/conv2d_bias_relu
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv2d_implicit_gemm_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    BATCH, C_IN, H, W, C_OUT, OH, OW,
    stride_xn, stride_xc, stride_xh, stride_xw,
    stride_yn, stride_yc, stride_yh, stride_yw,
    PAD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    M = BATCH * OH * OW
    K_TOTAL = C_IN * KH * KW

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_idx = offs_m // (OH * OW)
    hw = offs_m % (OH * OW)
    oh = hw // OW
    ow = hw % OW
    mask_m = offs_m < M
    mask_n = offs_n < C_OUT

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K_TOTAL, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        ci = offs_k // (KH * KW)
        r = offs_k % (KH * KW)
        kh = r // KW
        kw = r % KW
        ih = oh[:, None] + kh[None, :] - PAD
        iw = ow[:, None] + kw[None, :] - PAD
        a_mask = (mask_m[:, None] & (offs_k[None, :] < K_TOTAL)
                  & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W))
        a_ptrs = (x_ptr + n_idx[:, None] * stride_xn + ci[None, :] * stride_xc
                  + ih * stride_xh + iw * stride_xw)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(w_ptr + offs_k[:, None] * C_OUT + offs_n[None, :],
                    mask=(offs_k[:, None] < K_TOTAL) & mask_n[None, :], other=0.0)
        acc += tl.dot(a, b)

    bias = tl.load(b_ptr + offs_n, mask=mask_n, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)

    y_ptrs = (y_ptr + n_idx[:, None] * stride_yn + offs_n[None, :] * stride_yc
              + oh[:, None] * stride_yh + ow[:, None] * stride_yw)
    tl.store(y_ptrs, acc, mask=mask_m[:, None] & mask_n[None, :])


def _out_hw(h: int, w: int, k: int, pad: int) -> Tuple[int, int]:
    return h + 2 * pad - k + 1, w + 2 * pad - k + 1


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.kernel_size = kernel_size
        self.pad = kernel_size // 2
        w = self.conv.weight.detach()
        self.register_buffer("w_gemm", w.reshape(out_channels, -1).t().contiguous())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c_in, h, w = x.shape
        c_out = self.conv.out_channels
        oh, ow = _out_hw(h, w, self.kernel_size, self.pad)
        y = torch.empty((n, c_out, oh, ow), device=x.device, dtype=x.dtype)
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 32, 32
        grid = (triton.cdiv(n * oh * ow, BLOCK_M), triton.cdiv(c_out, BLOCK_N))
        conv2d_implicit_gemm_kernel[grid](
            x, self.w_gemm, self.conv.bias, y,
            n, c_in, h, w, c_out, oh, ow,
            x.stride(0), x.stride(1), x.stride(2), x.stride(3),
            y.stride(0), y.stride(1), y.stride(2), y.stride(3),
            PAD=self.pad, KH=self.kernel_size, KW=self.kernel_size,
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        )
        return y
