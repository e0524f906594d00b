# An honest Triton ModelNew for l1_conv2d_unfold_gemm.py (KernelBench level1/80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__): im2col by F.unfold and a Triton tl.dot GEMM (input_precision="tf32") over a 3-D grid with the batch on axis 2, an optional bias as a constexpr flag with the weight passed as a dummy pointer. Ok, but coverage 0: unfold's memory pass alone is priced above the reference convolution's whole work at the CPU sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=8, num_stages=3),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def im2col_gemm_kernel(w_ptr, col_ptr, bias_ptr, out_ptr, M, N, K,
                       stride_wm, stride_wk, stride_cb, stride_ck, stride_cn, stride_ob, stride_om, stride_on,
                       HAS_BIAS: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # out[b] (M=Cout, N=L) = W (M, K) @ cols[b] (K, L)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    col_base = col_ptr + b.to(tl.int64) * stride_cb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        w = tl.load(w_ptr + offs_m[:, None] * stride_wm + kk[None, :] * stride_wk,
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        c = tl.load(col_base + kk[:, None] * stride_ck + offs_n[None, :] * stride_cn,
                    mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(w, c, input_precision="tf32")
    if HAS_BIAS:
        acc += tl.load(bias_ptr + offs_m, mask=offs_m < M, other=0.0)[:, None]
    out = out_ptr + b.to(tl.int64) * stride_ob + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: int = 1,
                 padding: tuple = (0, 0), dilation: tuple = (1, 1), bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        conv = self.conv2d
        B, C, H, W = x.shape
        kh, kw = conv.kernel_size
        sh, sw = conv.stride
        ph, pw = conv.padding
        dh, dw = conv.dilation
        H_out = (H + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        W_out = (W + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        cols = F.unfold(x, (kh, kw), dilation=(dh, dw), padding=(ph, pw), stride=(sh, sw))  # (B, C*kh*kw, L)
        w = conv.weight.view(conv.out_channels, -1)
        M, K = w.shape
        N = cols.shape[2]
        out = torch.empty((B, M, N), device=x.device, dtype=x.dtype)
        has_bias = conv.bias is not None
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]), B)
        im2col_gemm_kernel[grid](w, cols, conv.bias if has_bias else w, out, M, N, K,
                                 w.stride(0), w.stride(1), cols.stride(0), cols.stride(1), cols.stride(2),
                                 out.stride(0), out.stride(1), out.stride(2), HAS_BIAS=has_bias)
        return out.view(B, M, H_out, W_out)
