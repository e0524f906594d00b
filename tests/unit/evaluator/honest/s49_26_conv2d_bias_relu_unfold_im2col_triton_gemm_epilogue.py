# honest: conv2d + bias + relu as im2col (F.unfold, a gather PyTorch does) followed by a Triton GEMM whose epilogue adds the bias and applies relu, writing NCHW directly through output strides (no permute copy); fp32 tl.dot at TF32 (the problem's tolerance is 5e-3). problem: conv/conv2d_bias_relu
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def gemm_bias_relu_nchw_kernel(
    w_ptr, col_ptr, b_ptr, y_ptr,
    C_out, L, Kdim,
    stride_wo, stride_wk,
    stride_cb, stride_ck, stride_cl,
    stride_yb, stride_yc, stride_yl,
    BLOCK_O: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_K: tl.constexpr,
):
    # y[b, o, l] = relu(sum_k w[o, k] * cols[b, k, l] + bias[o])
    pid_o = tl.program_id(0)
    pid_l = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    offs_o = pid_o * BLOCK_O + tl.arange(0, BLOCK_O)
    offs_l = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    col_base = col_ptr + batch * stride_cb
    acc = tl.zeros((BLOCK_O, BLOCK_L), dtype=tl.float32)
    for k0 in range(0, Kdim, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        w = tl.load(w_ptr + offs_o[:, None] * stride_wo + offs_k[None, :] * stride_wk,
                    mask=(offs_o[:, None] < C_out) & (offs_k[None, :] < Kdim), other=0.0)
        c = tl.load(col_base + offs_k[:, None] * stride_ck + offs_l[None, :] * stride_cl,
                    mask=(offs_k[:, None] < Kdim) & (offs_l[None, :] < L), other=0.0)
        acc = tl.dot(w, c, acc, allow_tf32=True)
    bias = tl.load(b_ptr + offs_o, mask=offs_o < C_out, other=0.0)
    acc = tl.maximum(acc + bias[:, None], 0.0)
    y_ptrs = y_ptr + batch * stride_yb + offs_o[:, None] * stride_yc + offs_l[None, :] * stride_yl
    tl.store(y_ptrs, acc, mask=(offs_o[:, None] < C_out) & (offs_l[None, :] < L))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, C, H, W = x.shape
        ks = self.conv.kernel_size
        pad = self.conv.padding
        cols = F.unfold(x, ks, padding=pad)  # (B, C*kh*kw, H_out*W_out)
        H_out = H + 2 * pad[0] - ks[0] + 1
        W_out = W + 2 * pad[1] - ks[1] + 1
        L = H_out * W_out
        w2 = self.conv.weight.reshape(self.conv.out_channels, -1)
        C_out, Kdim = w2.shape
        y = torch.empty((B, C_out, H_out, W_out), device=x.device, dtype=x.dtype)
        y3 = y.view(B, C_out, L)
        BLOCK_O, BLOCK_L, BLOCK_K = 32, 64, 32
        grid = (triton.cdiv(C_out, BLOCK_O), triton.cdiv(L, BLOCK_L), B)
        gemm_bias_relu_nchw_kernel[grid](
            w2, cols, self.conv.bias, y3, C_out, L, Kdim,
            w2.stride(0), w2.stride(1),
            cols.stride(0), cols.stride(1), cols.stride(2),
            y3.stride(0), y3.stride(1), y3.stride(2),
            BLOCK_O=BLOCK_O, BLOCK_L=BLOCK_L, BLOCK_K=BLOCK_K, num_warps=4,
        )
        return y
