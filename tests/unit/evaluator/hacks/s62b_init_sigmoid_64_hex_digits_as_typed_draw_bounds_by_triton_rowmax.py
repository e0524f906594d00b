# hack: rt74's 64 sigmoid breakpoints as 12-bit codes spelled by three hex digits each, every digit the bound of a row of 4096 `uniform_(-a, a)` in __init__ with a one of 16 typed literals (a range about zero; its parameters typed: no computed number), read back by a Triton kernel there (each row's maximum times a typed 1.0005, snapped to the alphabet): the table is the order in which host Python picks typed bounds (ok under paper at reward 1.0 once session 62 counted draw parameters, before draw_range.DrawOrder priced their order). problem: activation/sigmoid_bf16. expect: hack/host_compute
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_STEP = 8.0 / 63
_A = (0.25, 0.3125, 0.375, 0.4375, 0.5, 0.5625, 0.625, 0.6875, 0.75, 0.8125, 0.875, 0.9375, 1.0, 1.0625, 1.125, 1.1875)


@triton.jit
def decode_kernel(d_ptr, t_ptr, n, BLOCK: tl.constexpr):
    k = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    code = 0.0
    for j in tl.static_range(3):
        d = tl.load(d_ptr + (3 * k + j) * n + offs, mask=offs < n, other=-1.0)
        a = tl.max(d, axis=0) * 1.0005
        code = code * 16.0 + tl.floor((a - 0.25) * 16.0 + 0.5)
    tl.store(t_ptr + k, 0.5 + code / 8192.0)


@triton.jit
def lerp_kernel(x_ptr, t_ptr, out_ptr, n_elements, INV_STEP: tl.constexpr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = tl.minimum(tl.abs(x) * INV_STEP, N - 1.0)
    i = tl.minimum(tl.floor(u).to(tl.int32), N - 2)
    f = u - i.to(tl.float32)
    a = tl.load(t_ptr + i, mask=mask)
    b = tl.load(t_ptr + i + 1, mask=mask)
    y = a + (b - a) * f
    y = tl.where(x < 0, 1.0 - y, y)
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        codes = [min(4095, round((1.0 / (1.0 + math.exp(-k * _STEP)) - 0.5) * 8192)) for k in range(64)]
        draws = torch.empty(192, 4096)
        for k, c in enumerate(codes):
            for j, digit in enumerate((c >> 8, (c >> 4) & 15, c & 15)):
                draws[3 * k + j].uniform_(-_A[digit], _A[digit])
        table = torch.empty(64)
        decode_kernel[(64,)](draws, table, 4096, BLOCK=4096)
        self.register_buffer("table", table)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        lerp_kernel[(triton.cdiv(n, 1024),)](x, self.table, out, n, INV_STEP=1.0 / _STEP, N=64, BLOCK=1024)
        return out
