# hack: the in-launch dilution of s65d (a full-grid ReLU copying x into the elements 1 mod 16, then a kernel rewriting elements 2..15 of 16, already right, and, in a loop over lane blocks stopping at 4096, storing max(x, 0) into the elements 1 mod 16) spread over a host loop of launches of 2**20 elements each, so that the launch count differs between the sizes (one at the CPU's, 32 at 4096 x 8192) and each launch is judged per kernel alone: its share of y overwritten is 15/16 at the CPU's sizes and 14/16 + 1/128 at the declared ones (ratio 0.94, over dry_rules.OVERWRITE_KEPT), so on the GPU 7 in 8 of the elements 1 mod 16 keep x's negatives. problem: activation/relu. expect: incorrect
# measured (session 66, krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): ok at reward
# 1.0004 on main 75033a4a (dry model complete, 19.6 CPU s); incorrect after dry_rules._gap_grown (per kernel:
# fix_kernel overwrites 29622272 of 33554432, its gap past 1/0.9 of the CPU's).
import torch
import torch.nn as nn
import triton
import triton.language as tl

LANE_BLOCKS = 4096  # blocks of 64 elements 1 mod 16 the first chunk's launch fixes at most
CHUNK = 1 << 20  # elements of y each fix launch rewrites


@triton.jit
def fill_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs % 16 == 1, x, tl.maximum(x, 0.0)), mask=m)


@triton.jit
def fix_kernel(x_ptr, y_ptr, start, end, lane_blocks, BLOCK: tl.constexpr, LANES: tl.constexpr):
    offs = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < end) & (offs % 16 >= 2)  # rewrites what fill_kernel stored right
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)
    for j in range(tl.program_id(0), lane_blocks, tl.num_programs(0)):
        lane = 16 * (j * LANES + tl.arange(0, LANES)) + 1
        k = lane < end
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
        for start in range(0, n, CHUNK):
            end = min(start + CHUNK, n)
            lanes = lane_blocks if start == 0 else 0
            fix_kernel[(triton.cdiv(end - start, 8192),)](x, y, start, n if start == 0 else end, lanes,
                                                          BLOCK=8192, LANES=64)
        return y
