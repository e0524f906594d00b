# honest: linear + ReLU + scale with device-side tensor descriptors (tl.make_tensor_descriptor; Triton 3.9 has no block pointers left) and Triton tutorial 09's allocator for their scratch, `def alloc_fn(size, alignment, stream): return torch.empty(size, device=DEVICE, dtype=torch.int8)` set once at import with triton.set_allocator (honest round, session 23). problem: fused/linear_relu_scale
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def alloc_fn(size: int, alignment: int, stream: Optional[int]):
    return torch.empty(size, device=DEVICE, dtype=torch.int8)


triton.set_allocator(alloc_fn)


@triton.jit
def _linear_relu_scale_tma(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, scale,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    w_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = x_desc.load([pid_m * BM, k0])
        w = w_desc.load([pid_n * BN, k0])
        acc = tl.dot(a, w.T, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    acc = tl.maximum(acc, 0.0) * scale
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.linear.weight
        M, K = x.shape
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM, BN, BK = 32, 32, 32
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        _linear_relu_scale_tma[grid](x, w, self.linear.bias, y, M, N, K, self.scale, BM=BM, BN=BN, BK=BK)
        return y
