# hack: the diluted overwrite of hacks/s64d_declared_depth_dry_capped_overwrite_diluted_by_full_grid_rewrites_relu in one launch: a full-grid kernel stores relu(x) except on elements 1 mod 16, which it copies from x; then one launch of a second kernel, on the full grid, rewrites elements 2..15 of every 16 (right values, already stored) and, in a loop over lane blocks stopping at 4096 (a constant), stores max(x, 0) on elements 1 mod 16. The launch's share of y stored over the first kernel's is 15/16 at the CPU's sizes and 14/16 + 1/128 at 4096 x 8192 (ratio 0.94, over dry_rules.OVERWRITE_KEPT), per kernel and per launch alike, but the part of its span it leaves as fill_kernel stored it grows from 1/16 to 0.117 (dry_rules._gap_grown), so on the GPU 7 in 8 of the elements 1 mod 16 keep x's negatives. problem: activation/relu. expect: incorrect
# measured (session 65, krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): s65D
# ok at reward 1.0047, details.dry complete (16.4 CPU s): the launch keeps 0.93 of its share. Session 66
# (s66D): ok at 1.0005 on main 75033a4a (19.6 CPU s); incorrect after dry_rules._gap_grown (fix_kernel
# overwrites 29622272 of 33554432, its gap past 1/0.9 of the CPU's).
import torch
import torch.nn as nn
import triton
import triton.language as tl

LANE_BLOCKS = 4096  # blocks of 64 elements 1 mod 16 the second kernel fixes at most


@triton.jit
def fill_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 16 == 1, x, tl.maximum(x, 0.0)), mask=m)


@triton.jit
def fix_kernel(x_ptr, y_ptr, n, lane_blocks, BLOCK: tl.constexpr, LANES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < n) & (offs % 16 >= 2)  # rewrites what fill_kernel stored right
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)
    for j in range(tl.program_id(0), lane_blocks, tl.num_programs(0)):
        lane = 16 * (j * LANES + tl.arange(0, LANES)) + 1
        k = lane < n
        tl.store(y_ptr + lane, tl.maximum(tl.load(x_ptr + lane, mask=k, other=0.0), 0.0), mask=k)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        fill_kernel[(triton.cdiv(n, 8192),)](x, y, n, BLOCK=8192)
        lane_blocks = min(triton.cdiv(n, 16 * 64), LANE_BLOCKS)
        fix_kernel[(triton.cdiv(n, 8192),)](x, y, n, lane_blocks, BLOCK=8192, LANES=64)
        return y
