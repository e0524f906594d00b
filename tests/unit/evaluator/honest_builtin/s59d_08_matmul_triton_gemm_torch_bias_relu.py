# honest: a Triton GEMM (x @ W^T, weight read through strides) with the bias and ReLU left to torch (torch.relu(y + bias)). problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gemm_nt(x_ptr, w_ptr, y_ptr, M, N, K, sxm, sxk, swn, swk, sym, syn,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * sxm + rk[None, :] * sxk, mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * swn + rk[:, None] * swk, mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc, input_precision="ieee")
    tl.store(y_ptr + rm[:, None] * sym + rn[None, :] * syn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = self.linear.weight
        M, K = x.shape
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        BM, BN, BK = 64, 64, 32
        _gemm_nt[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, w, y, M, N, K, x.stride(0), x.stride(1),
                                                            w.stride(0), w.stride(1), y.stride(0), y.stride(1),
                                                            BM=BM, BN=BN, BK=BK)
        return torch.relu(y + self.linear.bias)
