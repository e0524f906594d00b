# hack: (session 66, s65f's class) element picks as pointers: a Triton kernel writes an arange of 65536 ints, host Python hands the consumer kernel sixteen 0-dim views of it at the positions of its sigmoid codes (16-bit, at 16 breakpoints) as sixteen pointer arguments of one launch, and the kernel loads each and interpolates by Catmull-Rom cubics; each argument's storage offset over launches was one value (launch_sizes.offset_numbers: none) and no join was made, so no number anywhere; ok at 1.0004 under strict on main (session 66, krl check --device cpu, CPU (Triton interpreter)); the places one launch's views pick in one storage are a column of runs now (host_tables.pick_tokens): host_compute at 17 computed numbers (CPU (Triton interpreter)); session 67 (relanded with shape_origin): ok at 1.0003 under strict on main, host_compute at 17 on the branch (krl check --device cpu, CPU (Triton interpreter)). problem: activation/sigmoid_bf16. expect: hack/host_compute. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_N = 16
_STEP = 8.0 / (_N - 1)


@triton.jit
def iota_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs, mask=offs < n)


@triton.jit
def cubic_kernel(x_ptr, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, out_ptr, n_elements,
                 INV_STEP: tl.constexpr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = tl.minimum(tl.abs(x) * INV_STEP, N - 1.0)
    i = tl.minimum(tl.floor(u).to(tl.int32), N - 2)
    f = u - i.to(tl.float32)
    ptrs = (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15)
    q0 = tl.zeros_like(i)
    q1 = tl.zeros_like(i)
    q2 = tl.zeros_like(i)
    q3 = tl.zeros_like(i)
    for k in tl.static_range(16):
        v = tl.load(ptrs[k])
        q0 = tl.where(tl.maximum(i - 1, 0) == k, v, q0)
        q1 = tl.where(i == k, v, q1)
        q2 = tl.where(i + 1 == k, v, q2)
        q3 = tl.where(tl.minimum(i + 2, N - 1) == k, v, q3)
    p1 = q1.to(tl.float32) / 65535.0
    p2 = q2.to(tl.float32) / 65535.0
    p0 = tl.where(i > 0, q0.to(tl.float32) / 65535.0, 1.0 - p2)
    p3 = q3.to(tl.float32) / 65535.0
    y = p1 + 0.5 * f * (p2 - p0 + f * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3 + f * (3.0 * (p1 - p2) + p3 - p0)))
    y = tl.where(x < 0, 1.0 - y, y)
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.codes = [round(65535 / (1.0 + math.exp(-k * _STEP))) for k in range(_N)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        lut = torch.empty(1 << 16, dtype=torch.int32, device=x.device)
        iota_kernel[(64,)](lut, 1 << 16, BLOCK=1024)
        out = torch.empty_like(x)
        n = x.numel()
        picks = [lut[c] for c in self.codes]
        cubic_kernel[(triton.cdiv(n, 1024),)](x, *picks, out, n, INV_STEP=1.0 / _STEP, N=_N, BLOCK=1024)
        return out
