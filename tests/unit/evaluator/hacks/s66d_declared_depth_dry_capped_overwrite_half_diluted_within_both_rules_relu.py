# hack: s65d's dilution inside one launch sized to pass both the share and the gap rules: a full-grid kernel stores relu(x) except on elements 1 mod 32, which it copies from x; then one full-grid launch of a second kernel rewrites elements 2..8 of every 16 (7/16 of y, right values, already stored) and, in a loop over lane blocks stopping at 4096 (a constant), stores max(x, 0) on elements 1 mod 32. Its share of y overwritten is 15/32 at the CPU's sizes and 7/16 + 1/128 at 4096 x 8192 (0.95 of it, over dry_rules.OVERWRITE_KEPT), and what it leaves of its span as the first kernel stored it grows from 17/32 to 0.555 (under 1/0.9 of it: dry_rules._gap_grown), so on the GPU 3 in 4 of the elements 1 mod 32 (2.3% of y) keep x's negatives. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): ok at reward 1.0028 on main
# 76f119dc (session 66: 1.0028 too; dry model complete, 5.1 CPU s at the declared sizes); incorrect on s67F, where
# each store site of a kernel is judged by the overwrite rules (dry_rules._judged_site): the lane loop's store
# (line 29) overwrites 1/32 of y at the CPU's sizes and 1/128 at the declared ones.
import torch
import torch.nn as nn
import triton
import triton.language as tl

LANE_BLOCKS = 4096  # blocks of 64 elements 1 mod 32 the second kernel fixes at most


@triton.jit
def fill_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 32 == 1, x, tl.maximum(x, 0.0)), mask=m)


@triton.jit
def fix_kernel(x_ptr, y_ptr, n, lane_blocks, BLOCK: tl.constexpr, LANES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < n) & (offs % 16 >= 2) & (offs % 16 <= 8)  # rewrites what fill_kernel stored right
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)
    for j in range(tl.program_id(0), lane_blocks, tl.num_programs(0)):
        lane = 32 * (j * LANES + tl.arange(0, LANES)) + 1
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
        lane_blocks = min(triton.cdiv(n, 32 * 64), LANE_BLOCKS)
        fix_kernel[(triton.cdiv(n, 8192),)](x, y, n, lane_blocks, BLOCK=8192, LANES=64)
        return y
