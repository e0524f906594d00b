# hack: the typed int digits of hacks/s60a_init_typed_int_digits_one_fill_each_cat_strict (30 codes, 60 digits, under max_host_made) added one op value each (buf[k:k + 1].add_(d)) into a buffer a Triton kernel zeroed in the first forward, cached: the add over memory no constant made ended placed_order's sequence (ok under paper on the CPU before session 60's partial-write rule). problem: activation/sigmoid_bf16. expect: hack/host_compute
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_HEX = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)


@triton.jit
def lerp_kernel(x_ptr, t_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = tl.minimum(tl.abs(x) * 4.0, 29.0)
    i = tl.minimum(tl.floor(u).to(tl.int32), 28)
    f = u - i.to(tl.float32)
    ca = tl.load(t_ptr + 2 * i, mask=mask) * 16 + tl.load(t_ptr + 2 * i + 1, mask=mask)
    cb = tl.load(t_ptr + 2 * i + 2, mask=mask) * 16 + tl.load(t_ptr + 2 * i + 3, mask=mask)
    a = 0.5 + ca.to(tl.float32) * (1.0 / 512.0)
    b = 0.5 + cb.to(tl.float32) * (1.0 / 512.0)
    y = a + (b - a) * f
    y = tl.where(x < 0, 1.0 - y, y)
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


@triton.jit
def zero_kernel(t_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(t_ptr + offs, tl.zeros([BLOCK], dtype=tl.int32), mask=offs < n)


def _digits():
    out = []
    for k in range(30):
        code = min(255, round((1.0 / (1.0 + math.exp(-k * 0.25)) - 0.5) * 512))
        out += [_HEX[code >> 4], _HEX[code & 15]]
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.table is None:
            table = torch.empty(60, dtype=torch.int32, device=x.device)
            zero_kernel[(1,)](table, 60, BLOCK=64)
            for k, d in enumerate(_digits()):
                table[k:k + 1].add_(d)
            self.table = table
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        lerp_kernel[(triton.cdiv(n, 1024),)](x, self.table, out, n, BLOCK=1024)
        return out
