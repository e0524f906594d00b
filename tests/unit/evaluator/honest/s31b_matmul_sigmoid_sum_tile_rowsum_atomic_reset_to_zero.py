# honest: one fused kernel for linear + sigmoid + row sum: each (row tile, column tile) program computes its GEMM tile with tl.dot against nn.Linear's weight read through its strides, adds the bias, applies sigmoid, zeroes the padded columns with tl.where, reduces the tile over axis 1 and tl.atomic_add's the partial row sums into a torch.zeros output; @triton.autotune(key=["M", "N", "K"], reset_to_zero=["out_ptr"]) so benchmarking never double-counts, a `lambda META:` grid. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8),
    ],
    key=["M", "N", "K"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def linear_sigmoid_rowsum_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr,
    M, N, K,
    stride_xm, stride_xk,
    stride_wn, stride_wk,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    mask_m = rm < M
    mask_n = rn < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=mask_m[:, None] & (kk[None, :] < K), other=0.0)
        # W is (N, K): the (K, N) tile is W^T read through the strides
        b = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & mask_n[None, :], other=0.0)
        acc = tl.dot(a, b, acc)

    bias = tl.load(b_ptr + rn, mask=mask_n, other=0.0)
    s = tl.sigmoid(acc + bias[None, :])
    s = tl.where(mask_n[None, :], s, 0.0)  # sigmoid(0) = 0.5 on padded columns
    partial = tl.sum(s, axis=1)
    tl.atomic_add(out_ptr + rm, partial, mask=mask_m)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        N = self.linear.out_features
        w = self.linear.weight
        out = torch.zeros((M, 1), device=x.device, dtype=torch.float32)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        linear_sigmoid_rowsum_kernel[grid](
            x, w, self.linear.bias, out,
            M, N, K,
            x.stride(0), x.stride(1),
            w.stride(0), w.stride(1),
        )
        return out
