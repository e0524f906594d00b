# honest: a TensorDescriptor.from_tensor matmul (its shape is a torch.Size, its block shape a list). problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def linear_gelu_tma_kernel(x_desc, w_desc, b_ptr, out_ptr, M, N, K, stride_om,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = x_desc.load([off_m, k])          # (BLOCK_M, BLOCK_K)
        w = w_desc.load([off_n, k])          # (BLOCK_N, BLOCK_K)
        acc = tl.dot(a, w.T, acc, input_precision="ieee")
    rn = off_n + tl.arange(0, BLOCK_N)
    rm = off_m + tl.arange(0, BLOCK_M)
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    acc = acc + bias[None, :]
    acc = 0.5 * acc * (1.0 + tl.math.erf(acc * 0.7071067811865476))
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.linear.weight.contiguous()
        M, K = x.shape
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 32, 32
        x_desc = TensorDescriptor.from_tensor(x, [BLOCK_M, BLOCK_K])
        w_desc = TensorDescriptor.from_tensor(w, [BLOCK_N, BLOCK_K])
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        linear_gelu_tma_kernel[grid](x_desc, w_desc, self.linear.bias, out, M, N, K, out.stride(0),
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return out
