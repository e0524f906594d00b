import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_residual_kernel(x_ptr, w_ptr, b_ptr, r_ptr, out_ptr, M, N, K,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + rk[:, None],
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc, input_precision="ieee")
    out_mask = (rm[:, None] < M) & (rn[None, :] < N)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    acc += tl.load(r_ptr + rm[:, None] * N + rn[None, :], mask=out_mask, other=0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc, mask=out_mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        x, residual = x.contiguous(), residual.contiguous()
        m, k = x.shape
        n = self.linear.out_features
        out = torch.empty((m, n), device=x.device, dtype=x.dtype)
        BLOCK_M, BLOCK_N, BLOCK_K = 128, 64, 16
        linear_residual_kernel[(triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))](
            x, self.linear.weight, self.linear.bias, residual, out, m, n, k,
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_stages=3)
        return out
