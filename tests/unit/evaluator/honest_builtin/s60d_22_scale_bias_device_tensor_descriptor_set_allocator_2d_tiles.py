# honest: x * weight + bias over (tokens, features) with device-side tensor descriptors (tl.make_tensor_descriptor, triton.set_allocator for their scratch) for the 2-D x and out tiles, the per-feature weight and bias by plain pointer loads broadcast over rows. problem: elementwise/scale_bias
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _alloc(size: int, alignment: int, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


triton.set_allocator(_alloc)


@triton.jit
def scale_bias_desc(x_ptr, w_ptr, b_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    x = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], x * w[None, :] + b[None, :])


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.contiguous().view(-1, x.shape[-1])
        M, N = x2.shape
        y = torch.empty_like(x2)
        BM, BN = 32, 128
        scale_bias_desc[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x2, self.weight, self.bias, y, M, N,
                                                                   BLOCK_M=BM, BLOCK_N=BN, num_warps=4)
        return y.view_as(x)
