# honest: windowed frames and their energies with the symmetric Hann window computed by a list comprehension of math.cos (as scipy.signal.get_window writes it), lifted by torch.tensor; one Triton program per frame. problem: hann_window
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def hann(n):
    return [0.5 - 0.5 * math.cos(2.0 * math.pi * k / (n - 1)) for k in range(n)]


@triton.jit
def window_energy_kernel(x_ptr, w_ptr, y_ptr, e_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    y = x * w
    tl.store(y_ptr + row * N + offs, y, mask=mask)
    tl.store(e_ptr + row, tl.sum(y * y, axis=0))


class ModelNew(nn.Module):
    def __init__(self, frame):
        super().__init__()
        self.register_buffer("window", torch.tensor(hann(frame), dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        N = x.shape[-1]
        rows = x.numel() // N
        y = torch.empty_like(x)
        e = torch.empty(x.shape[:-1], device=x.device, dtype=x.dtype)
        window_energy_kernel[(rows,)](x, self.window, y, e, N, BLOCK=triton.next_power_of_2(N))
        return y, e
