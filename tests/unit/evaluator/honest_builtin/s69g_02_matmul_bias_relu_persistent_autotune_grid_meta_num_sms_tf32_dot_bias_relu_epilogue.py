# honest: linear + ReLU as one persistent Triton GEMM: @triton.autotune over tile shapes and warps keyed on (M, N, K), a grid lambda that launches min(NUM_SMS, tiles) programs (NUM_SMS from the device properties, 132 when there is no device), each program walking tiles pid, pid + NUM_SMS, ... in grouped (GROUP_M) order, tl.dot with input_precision="tf32" into an fp32 accumulator over K, bias added and ReLU applied in the epilogue before the store. problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _num_sms(device: torch.device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 132


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def _persistent_linear_relu(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_wn, stride_wk, stride_cm, stride_cn,
                            NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in range(start_pid, num_tiles, NUM_SMS):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            ks = k0 + offs_k
            a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
                        mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
            # W is (N, K): read a (BLOCK_K, BLOCK_N) tile of W^T
            w = tl.load(w_ptr + ks[:, None] * stride_wk + offs_n[None, :] * stride_wn,
                        mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
            acc = tl.dot(a, w, acc, input_precision="tf32")
        bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
        acc = tl.maximum(acc + bias[None, :], 0.0)
        c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
                 acc.to(c_ptr.dtype.element_ty), mask=c_mask)


def linear_relu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = weight.shape[0]
    c = torch.empty((M, N), device=x.device, dtype=x.dtype)
    num_sms = _num_sms(x.device)
    grid = lambda META: (min(num_sms, triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"])),)
    _persistent_linear_relu[grid](x, weight, bias, c, M, N, K,
                                  x.stride(0), x.stride(1), weight.stride(0), weight.stride(1),
                                  c.stride(0), c.stride(1), NUM_SMS=num_sms)
    return c


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_relu(x, self.linear.weight, self.linear.bias)
