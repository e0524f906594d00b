# An honest Triton ModelNew for l1_rmsnorm.py (KernelBench level1/36_RMSNorm_): a reduction over dim 1 of a (B, C, S) view on a 2-D grid (spatial blocks x batch), a (BLOCK_C, BLOCK_S) accumulator summed over axis 0, then a second pass scaling.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_dim1_kernel(x_ptr, y_ptr, C, S, eps, BLOCK_S: tl.constexpr, BLOCK_C: tl.constexpr):
    # x viewed as (B, C, S); normalise over C for each (b, s)
    pid_s = tl.program_id(0)
    b = tl.program_id(1)
    offs_s = pid_s * BLOCK_S + tl.arange(0, BLOCK_S)
    mask_s = offs_s < S
    base = b.to(tl.int64) * C * S
    acc = tl.zeros((BLOCK_C, BLOCK_S), dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        offs_c = c0 + tl.arange(0, BLOCK_C)
        m = (offs_c[:, None] < C) & mask_s[None, :]
        x = tl.load(x_ptr + base + offs_c[:, None] * S + offs_s[None, :], mask=m, other=0.0).to(tl.float32)
        acc += x * x
    ms = tl.sum(acc, axis=0) / C
    inv_rms = 1.0 / tl.sqrt(ms + eps)
    for c0 in range(0, C, BLOCK_C):
        offs_c = c0 + tl.arange(0, BLOCK_C)
        m = (offs_c[:, None] < C) & mask_s[None, :]
        ptrs = base + offs_c[:, None] * S + offs_s[None, :]
        x = tl.load(x_ptr + ptrs, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + ptrs, x * inv_rms[None, :], mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C = x.shape[0], x.shape[1]
        S = x[0, 0].numel()
        y = torch.empty_like(x)
        BLOCK_S = 128
        BLOCK_C = min(16, triton.next_power_of_2(C))
        grid = (triton.cdiv(S, BLOCK_S), B)
        rmsnorm_dim1_kernel[grid](x, y, C, S, self.eps, BLOCK_S=BLOCK_S, BLOCK_C=BLOCK_C, num_warps=4)
        return y
