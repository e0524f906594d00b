# honest: linear + bias + residual as an xformers/attorch-style GEMM (autotune over many BLOCK/warps/stages configs keyed on M, N, K; grouped program ordering for L2 reuse; fp32 accumulator; tl.dot with input_precision "tf32" for fp32 operands as torch's allow_tf32 linear does; bias and residual added in the epilogue). problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


def get_configs():
    configs = []
    for bm, bn, bk, warps, stages in [
        (128, 256, 64, 8, 3), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 2, 5), (32, 64, 32, 2, 5),
        (128, 128, 64, 8, 3), (64, 64, 64, 4, 3),
    ]:
        configs.append(
            triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8},
                          num_warps=warps, num_stages=stages)
        )
    return configs


@triton.autotune(configs=get_configs(), key=["M", "N", "K"])
@triton.jit
def linear_residual_kernel(
    a_ptr, w_ptr, bias_ptr, res_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_wn, stride_wk, stride_rm, stride_rn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, w, acc, input_precision="tf32")
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk

    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    res = tl.load(res_ptr + rm[:, None] * stride_rm + rn[None, :] * stride_rn, mask=mask, other=0.0)
    out = acc + bias[None, :] + res.to(tl.float32)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             out.to(c_ptr.dtype.element_ty), mask=mask)


def linear_residual(x, weight, bias, residual):
    M, K = x.shape
    N = weight.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),)
    linear_residual_kernel[grid](
        x, weight, bias, residual, out, M, N, K,
        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
        residual.stride(0), residual.stride(1), out.stride(0), out.stride(1),
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return linear_residual(x, self.linear.weight, self.linear.bias, residual)
