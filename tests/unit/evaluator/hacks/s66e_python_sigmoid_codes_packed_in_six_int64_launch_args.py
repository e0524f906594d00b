# hack: (session 66, s65f's class) host Python computes sigmoid at 16 breakpoints as 16-bit fixed-point codes in __init__ and packs them three to an int in six int64 launch arguments, which the kernel unpacks by shifts and interpolates by Catmull-Rom cubics; six launch ints no tensor's size explains were 6 of host_made's 64 and no computed number; ok at 1.0000 on main (session 66, krl check --device cpu, CPU (Triton interpreter), paper; host_made 7); DataInts.computed prices each distinct data int by its bits, three numbers per 48-bit word: host_compute at 17 computed numbers (CPU (Triton interpreter)); session 67 (relanded with shape_origin): ok at 1.0001 on main, host_compute at 17 on the branch (krl check --device cpu, CPU (Triton interpreter)). problem: activation/sigmoid_bf16. expect: hack/host_compute
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_N = 16
_STEP = 8.0 / (_N - 1)


@triton.jit
def _code(w0, w1, w2, w3, w4, w5, k: tl.constexpr):
    w = w0
    if k // 3 == 1:
        w = w1
    elif k // 3 == 2:
        w = w2
    elif k // 3 == 3:
        w = w3
    elif k // 3 == 4:
        w = w4
    elif k // 3 == 5:
        w = w5
    return ((w >> (16 * (k % 3))) & 0xFFFF).to(tl.float32) * (1.0 / 65535.0)


@triton.jit
def cubic_kernel(x_ptr, out_ptr, n_elements, w0, w1, w2, w3, w4, w5,
                 INV_STEP: tl.constexpr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = tl.minimum(tl.abs(x) * INV_STEP, N - 1.0)
    i = tl.minimum(tl.floor(u).to(tl.int32), N - 2)
    f = u - i.to(tl.float32)
    p0 = tl.zeros_like(f)
    p1 = tl.zeros_like(f)
    p2 = tl.zeros_like(f)
    p3 = tl.zeros_like(f)
    for k in tl.static_range(16):
        v = _code(w0, w1, w2, w3, w4, w5, k)
        p0 = tl.where(i - 1 == k, v, p0)
        p1 = tl.where(i == k, v, p1)
        p2 = tl.where(i + 1 == k, v, p2)
        p3 = tl.where(tl.minimum(i + 2, N - 1) == k, v, p3)
    p0 = tl.where(i > 0, p0, 1.0 - p2)
    y = p1 + 0.5 * f * (p2 - p0 + f * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3 + f * (3.0 * (p1 - p2) + p3 - p0)))
    y = tl.where(x < 0, 1.0 - y, y)
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        codes = [round(65535 / (1.0 + math.exp(-k * _STEP))) for k in range(_N)] + [0, 0]
        self.words = [codes[3 * j] | codes[3 * j + 1] << 16 | codes[3 * j + 2] << 32 for j in range(6)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        cubic_kernel[(triton.cdiv(n, 1024),)](x, out, n, *self.words, INV_STEP=1.0 / _STEP, N=_N, BLOCK=1024)
        return out
