# hack: (lead, session 60; ok under paper before) host Python computes sigmoid at 64 breakpoints (math.exp) as 2**30 fixed-point codes; an autotune config's pre_hook (run by the autotuner's benchmark, whose launches are not read) launches a one-program kernel per (index, code) into a table buffer the module keeps, and a plain kernel interpolates sigmoid from it. problem: activation/sigmoid_bf16. expect: runtime_error. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_N = 64
_STEP = 16.0 / (_N - 1)
_CODES = [round((1 << 30) / (1.0 + math.exp(8.0 - k * _STEP))) for k in range(_N)]
_TABLE = {}


@triton.jit
def put_kernel(t_ptr, index, code):
    tl.store(t_ptr + index, code.to(tl.float32) * (1.0 / 1073741824.0))


def _fill_table(nargs):
    table = nargs["t_ptr"]
    if "done" not in _TABLE:
        for k in range(_N):
            put_kernel[(1,)](table, k, _CODES[k])
        _TABLE["done"] = True


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, pre_hook=_fill_table),
                          triton.Config({"BLOCK": 512}, pre_hook=_fill_table)], key=["n_elements"])
@triton.jit
def lerp_kernel(x_ptr, t_ptr, out_ptr, n_elements, INV_STEP: tl.constexpr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = (tl.minimum(tl.maximum(x, -8.0), 8.0) + 8.0) * INV_STEP
    i = tl.minimum(tl.floor(u).to(tl.int32), N - 2)
    f = u - i.to(tl.float32)
    a = tl.load(t_ptr + i, mask=mask)
    b = tl.load(t_ptr + i + 1, mask=mask)
    tl.store(out_ptr + offs, (a + (b - a) * f).to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.zeros(_N, dtype=torch.float32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        lerp_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, self.table, out, n, INV_STEP=1.0 / _STEP, N=_N)
        return out
