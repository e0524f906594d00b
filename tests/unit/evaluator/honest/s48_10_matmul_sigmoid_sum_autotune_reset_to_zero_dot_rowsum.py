# honest: Linear + sigmoid + row sum: an autotuned (four configs, keyed on M/N/K) tl.dot GEMM tile, bias and sigmoid in registers, then tl.sum(axis=1) of the MMA-layout tile and tl.atomic_add of the partial row sums into out; out is zeroed by reset_to_zero between the autotuner's benchmark runs and by the launcher. Parameters from the module's nn.Linear. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=2),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 64}, num_warps=2, num_stages=2),
    ],
    key=["M", "N", "K"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def linear_sigmoid_rowsum_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
                                 stride_xm, stride_xk, stride_wn, stride_wk,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k0 * BLOCK_K + offs_k
        a = tl.load(x_ptr + offs_m[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * stride_wn + kk[:, None] * stride_wk,
                    mask=(offs_n[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(a, b)
    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    s = tl.sigmoid(acc + bias[None, :])
    s = tl.where(offs_n[None, :] < N, s, 0.0)
    part = tl.sum(s, axis=1)
    tl.atomic_add(out_ptr + offs_m, part, mask=offs_m < M)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, K = x.shape
        w = self.linear.weight
        N = w.shape[0]
        out = torch.zeros(M, device=x.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
        linear_sigmoid_rowsum_kernel[grid](x, w, self.linear.bias, out, M, N, K,
                                           x.stride(0), x.stride(1), w.stride(0), w.stride(1))
        return out.unsqueeze(1)
