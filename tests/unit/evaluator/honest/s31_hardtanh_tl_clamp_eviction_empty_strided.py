# honest: hardtanh as one tl.clamp(x, min_val, max_val) (Triton >= 3.0), the bounds passed as Python floats from the module's attributes, tl.load with cache_modifier=".cg" and tl.store with eviction_policy="evict_first" for a streaming op (the two on one load are refused by ptxas on the H200: "Modifier .evict_first cannot be combined with modifier .cg"), a flat 1-D launch over x.numel() with int64 offsets for big tensors (pid.to(tl.int64) * BLOCK), the output from torch.empty_strided(x.size(), x.stride()), a cached launch-size helper under functools.lru_cache, num_warps chosen from the block. problem: activation/hardtanh
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _hardtanh_kernel(x_ptr, y_ptr, n_elements, min_val, max_val, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0, cache_modifier=".cg")
    y = tl.clamp(x, min_val, max_val)
    tl.store(y_ptr + offsets, y, mask=mask, eviction_policy="evict_first")


@functools.lru_cache(maxsize=None)
def _launch_params(n: int):
    block = 4096 if n >= 1 << 20 else 1024
    num_warps = 8 if block >= 4096 else 4
    return block, num_warps, triton.cdiv(n, block)


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = float(min_val)
        self.max_val = float(max_val)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_contiguous():
            x = x.contiguous()
        y = torch.empty_strided(x.size(), x.stride(), dtype=x.dtype, device=x.device)
        n = x.numel()
        block, num_warps, n_blocks = _launch_params(n)
        _hardtanh_kernel[(n_blocks,)](x, y, n, self.min_val, self.max_val, BLOCK=block, num_warps=num_warps)
        return y
