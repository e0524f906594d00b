"""Honest candidate: max over a dim with a persistent grid sized by the GPU's SM count, or
os.cpu_count() off the GPU (honest round s41: os.cpu_count was refused until session 43).
"""
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


def _num_programs(device: torch.device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count * 4
    return os.cpu_count() or 1


@triton.jit
def _row_max_persistent(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in range(pid, n_rows, nprog):
        m = tl.full([BLOCK], float("-inf"), tl.float32)
        for off in range(0, n_cols, BLOCK):
            cols = off + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
            m = tl.maximum(m, x)
        tl.store(y_ptr + row, tl.max(m, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, D = x.shape
        y = torch.empty(B, device=x.device, dtype=x.dtype)
        grid = (min(B, _num_programs(x.device)),)
        _row_max_persistent[grid](x, y, B, D, x.stride(0), BLOCK=1024)
        return y
