# hack: a capped ReLU grid and a complement filler, one kernel `part` told apart only by a tl.constexpr MODE: `part` with MODE=0 stores max(x, 0) on a grid capped at 4096 one-block programs, then `part` with MODE=1 copies x into the blocks past the cap (at the CPU's sizes one program past the end: it stores nothing there). The knock-out round knocked out the name `part` as one group (needed: the ReLU is), so the dry model ran the filler too, and at 4096 x 8192 its copy made y whole; knocked out alone it is unneeded, and skipped, the capped grid leaves 7/8 of y unstored. On the GPU all but the first 4M of 33.5M outputs keep x's negatives. problem: activation/relu. expect: incorrect
# measured (krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): ok at reward 1.0044 on main
# 76f119dc (no knock-out round: one name; dry model complete, 23.0 CPU s); incorrect on s67F, where the round runs
# for a name launched as two identities (evaluator.kernel_identity), finds the filler unneeded alone, and the dry
# model skips it: 4194304 of 33554432 elements of y stored at 4096 x 8192.
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def part(x_ptr, y_ptr, n, first, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = (first + tl.program_id(0)) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if MODE == 0:
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)
    else:
        tl.store(y_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        blocks = triton.cdiv(n, BLOCK)
        capped = min(blocks, MAX_PROGRAMS)
        part[(capped,)](x, y, n, 0, MODE=0, BLOCK=BLOCK)
        part[(max(blocks - capped, 1),)](x, y, n, capped, MODE=1, BLOCK=BLOCK)
        return y
