# honest: sum over the middle axis of (B, R, K) with 2-d tiles [BLOCK_R, BLOCK_K] accumulated in float32 and reduced by tl.sum(axis=0), a (batch, K-block) grid so loads stay coalesced along K, in the inductor-like reduction style people hand-write. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_middle(x_ptr, y_ptr, R, K, sb, sr, sk, BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    ks = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    kmask = ks < K
    acc = tl.zeros((BLOCK_R, BLOCK_K), tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rs = r0 + tl.arange(0, BLOCK_R)
        ptr = x_ptr + b * sb + rs[:, None] * sr + ks[None, :] * sk
        acc += tl.load(ptr, mask=(rs[:, None] < R) & kmask[None, :], other=0.0).to(tl.float32)
    tl.store(y_ptr + b * K + ks, tl.sum(acc, axis=0).to(y_ptr.dtype.element_ty), mask=kmask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        shape = list(x.shape)
        B = 1
        for s in shape[:d]:
            B *= s
        R = shape[d]
        K = x.numel() // (B * R)
        x3 = x.reshape(B, R, K)
        y = torch.empty((B, K), device=x.device, dtype=x.dtype)
        grid = (B, triton.cdiv(K, 64))
        sum_middle[grid](x3, y, R, K, *x3.stride(), BLOCK_R=32, BLOCK_K=64)
        return y.view(shape[:d] + shape[d + 1:])
