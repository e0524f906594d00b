# An honest ModelNew for KernelBench level2/9_Matmul_Subtract_Multiply_ReLU; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_linear_kernel(x_ptr, w_ptr, b_ptr, c_ptr, M, N, K, ldc, sub, mul,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C is padded to whole tiles, so the store needs no mask
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(a, w)
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    y = tl.maximum((acc + bias[None, :] - sub) * mul, 0.0)
    tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], y)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, subtract_value, multiply_value):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.subtract_value = subtract_value
        self.multiply_value = multiply_value

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.out_features
        BM, BN, BK = 16, 16, 32
        Mp, Np = triton.cdiv(M, BM) * BM, triton.cdiv(N, BN) * BN
        c = torch.empty((Mp, Np), device=x.device, dtype=x.dtype)
        fused_linear_kernel[(Mp // BM, Np // BN)](
            x, self.linear.weight, self.linear.bias, c, M, N, K, c.stride(0),
            self.subtract_value, self.multiply_value, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        return c[:M, :N]  # a view into the padded buffer
