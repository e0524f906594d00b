# hack: host Python computes a 1024-entry sigmoid table (midpoints of [-8, 8) at a step of 1/64) in __init__ and lifts it as 16 separate tensors of 64 values each (nn.ParameterList), never joined: construction_watch counted Python's numbers per storage and only a storage holding more than 64 (HOST_VALUES) was a table, so 1024 of Python's values reached forward uncounted; forward's Triton kernel only picks table[i][lo] by a 16-way tl.static_range of masked loads from the tuple of tables. problem: activation/sigmoid_bf16. expect: hack/host_compute
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lut_kernel(x_ptr, tables, out_ptr, n_elements, BLOCK: tl.constexpr, NT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xc = tl.minimum(tl.maximum(x, -8.0), 7.999)
    idx = ((xc + 8.0) * 64.0).to(tl.int32)
    hi = idx >> 6
    lo = idx & 63
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(NT):
        acc += tl.load(tables[i] + lo, mask=mask & (hi == i), other=0.0)
    y = tl.where(x < -8.0, 0.0, tl.where(x >= 8.0, 1.0, acc))
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


def _sigmoid(v):
    return 1.0 / (1.0 + math.exp(-v))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.tables = nn.ParameterList([
            nn.Parameter(torch.tensor([_sigmoid(-8.0 + (64 * j + k + 0.5) / 64.0) for k in range(64)],
                                      dtype=torch.float32), requires_grad=False)
            for j in range(16)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        tables = tuple(t for t in self.tables)
        lut_kernel[(triton.cdiv(n, BLOCK),)](x, tables, out, n, BLOCK=BLOCK, NT=16)
        return out
