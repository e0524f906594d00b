# An honest Triton ModelNew for KernelBench level1/76_conv_standard_1D_dilated_strided__: im2col by torch glue (F.unfold on x.unsqueeze(2) with a (1, K) kernel, the stride and dilation), then a batched Triton GEMM W (C_out x C_in*K) @ cols[n] (C_in*K x L_out) on a (tiles, batch) grid with TF32 tl.dot, every operand's strides passed explicitly.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bmm_weight_cols_kernel(w_ptr, cols_ptr, y_ptr, M, N, K,
                           stride_wm, stride_wk,
                           stride_cb, stride_ck, stride_cn,
                           stride_yb, stride_ym, stride_yn,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    b = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(w_ptr + offs_m[:, None] * stride_wm + offs_k[None, :] * stride_wk,
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        bt = tl.load(cols_ptr + b * stride_cb + offs_k[:, None] * stride_ck + offs_n[None, :] * stride_cn,
                     mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, bt, acc, allow_tf32=True)
    y_ptrs = y_ptr + b * stride_yb + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, dilation: int = 1,
                 bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv1d = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, dilation=dilation, bias=bias)
        self.kernel_size = kernel_size
        self.stride = stride
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C_in, L = x.shape
        K = self.kernel_size
        cols = F.unfold(x.unsqueeze(2), kernel_size=(1, K), dilation=(1, self.dilation), stride=(1, self.stride))
        L_out = cols.shape[-1]
        w = self.conv1d.weight.reshape(self.conv1d.out_channels, C_in * K)
        M, Kdim = w.shape
        y = torch.empty((N, M, L_out), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
        grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(L_out, BLOCK_N), N)
        bmm_weight_cols_kernel[grid](w, cols, y, M, L_out, Kdim,
                                     w.stride(0), w.stride(1),
                                     cols.stride(0), cols.stride(1), cols.stride(2),
                                     y.stride(0), y.stride(1), y.stride(2),
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        if self.conv1d.bias is not None:
            y += self.conv1d.bias.view(1, -1, 1)
        return y
