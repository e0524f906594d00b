# honest: sum over the middle axis of a (B, R, C) tensor as a persistent kernel: the grid is min(tiles, 4 x SMs) from torch.cuda.get_device_properties (os.cpu_count()-based off CUDA), each program striding over (batch, column block) tiles with tl.range(pid, tiles, tl.num_programs(0)) and summing rows in chunks. problem: reduction/sum_dim. policy: strict
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_mid_persistent(x_ptr, y_ptr, B, R, C, sxb, sxr, sxc, syb, syc,
                       BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    col_tiles = tl.cdiv(C, BLOCK_C)
    tiles = B * col_tiles
    for tile in tl.range(pid, tiles, tl.num_programs(0)):
        b = tile // col_tiles
        cols = (tile % col_tiles) * BLOCK_C + tl.arange(0, BLOCK_C)
        cmask = cols < C
        acc = tl.zeros((BLOCK_C,), dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            rows = r0 + tl.arange(0, BLOCK_R)
            m = (rows[:, None] < R) & cmask[None, :]
            x = tl.load(x_ptr + b * sxb + rows[:, None] * sxr + cols[None, :] * sxc, mask=m, other=0.0)
            acc += tl.sum(x, axis=0)
        tl.store(y_ptr + b * syb + cols * syc, acc, mask=cmask)


def _max_programs(device: torch.device) -> int:
    if device.type == "cuda":
        return 4 * torch.cuda.get_device_properties(device).multi_processor_count
    return max(1, (os.cpu_count() or 1))


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.dim != 1 or x.dim() != 3:
            return torch.sum(x, dim=self.dim)
        B, R, C = x.shape
        y = torch.empty((B, C), device=x.device, dtype=x.dtype)
        BLOCK_C = 128
        tiles = B * triton.cdiv(C, BLOCK_C)
        grid = (min(tiles, _max_programs(x.device)),)
        sum_mid_persistent[grid](x, y, B, R, C, *x.stride(), *y.stride(), BLOCK_R=32, BLOCK_C=BLOCK_C, num_warps=4)
        return y
