# honest: unsloth's swiglu _fg_kernel shape adapted to plain SiLU: module-level NUM_INT32_ELEMENTS / SAFE_INT32_BUFFER_MULTIPLIER / INT32_SAFETY_BUFFER constants, a LONG_INDEXING constexpr branch that casts block_idx and n_elements to int64 with tl.cast, `.to(tl.float32)` load then `.to(x_row.dtype)` back, unsloth utils' torch_gpu_device (contextlib.nullcontext on one device) wrapped round the launch, and a grid lambda over meta["BLOCK_SIZE"]. problem: activation/silu
import contextlib

import torch
import torch.nn as nn
import triton
import triton.language as tl

# signed int32 max is 2**31-1, so num_elements cannot exceed it
NUM_INT32_ELEMENTS = 2**31
SAFE_INT32_BUFFER_MULTIPLIER = 4
BLOCK_SIZE = 1024
INT32_SAFETY_BUFFER = NUM_INT32_ELEMENTS - BLOCK_SIZE * SAFE_INT32_BUFFER_MULTIPLIER

DEVICE_COUNT = torch.cuda.device_count() if torch.cuda.is_available() else 0
if DEVICE_COUNT > 1:
    torch_gpu_device = torch.cuda.device
else:

    def torch_gpu_device(device):
        return contextlib.nullcontext()


@triton.jit
def _silu_kernel(e, h, n_elements, BLOCK_SIZE: tl.constexpr, LONG_INDEXING: tl.constexpr):
    block_idx = tl.program_id(0)
    if LONG_INDEXING:
        offsets = block_idx.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE).to(tl.int64)
        n_elements = tl.cast(n_elements, tl.int64)
    else:
        offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    x_row = tl.load(e + offsets, mask = mask, other = 0)
    e_row = x_row.to(tl.float32)

    f_row = e_row * tl.sigmoid(e_row)  # e_row / (1 + tl.exp(-e_row))
    f_row = f_row.to(x_row.dtype)  # Exact copy from HF

    tl.store(h + offsets, f_row, mask = mask)


def silu_kernel(e):
    n_elements = e.numel()
    h = torch.empty(e.shape, dtype = e.dtype, device = e.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    with torch_gpu_device(e.device):
        _silu_kernel[grid](
            e,
            h,
            n_elements,
            BLOCK_SIZE = BLOCK_SIZE,
            LONG_INDEXING = 0 if n_elements <= INT32_SAFETY_BUFFER else 1,
        )
    return h


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu_kernel(x.contiguous())
