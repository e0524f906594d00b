# honest: linear + bias + ReLU as one Triton GEMM in the KernelBench community style: tutorial 03's grouped (GROUP_SIZE_M) program ordering, TF32 tl.dot (input_precision="tf32", float32 accumulation), the bias and ReLU fused into the epilogue, and @triton.autotune over eight configs keyed on (M, N, K). problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _configs():
    out = []
    for bm, bn, bk, warps, stages in [
        (128, 128, 32, 8, 3), (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (64, 64, 32, 4, 4),
        (128, 32, 32, 4, 4), (32, 64, 32, 2, 5), (64, 32, 64, 2, 5), (32, 32, 64, 2, 4),
    ]:
        out.append(triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_SIZE_M": 8},
                                 num_warps=warps, num_stages=stages))
    return out


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                            stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_n[None, :] < N) & (offs_k[:, None] < k_left), other=0.0)
        acc = tl.dot(x, w, acc, input_precision="tf32")
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn
    tl.store(y_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        w = self.linear.weight
        M, K = x.shape
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),)
        linear_bias_relu_kernel[grid](x, w, self.linear.bias, y, M, N, K,
                                      x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                      y.stride(0), y.stride(1))
        return y
