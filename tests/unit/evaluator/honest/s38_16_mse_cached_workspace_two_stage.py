"""MSE as a two-stage reduction: a persistent-style first kernel writes one partial sum
per program into a workspace the module allocates once and reuses across calls (as
inference libraries keep their scratch buffers), then one program sums the partials."""
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_PARTIALS = 64


@triton.jit
def _sq_diff_partials(a_ptr, b_ptr, part_ptr, n_elements, BLOCK: tl.constexpr,
                      NUM_PROGRAMS: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    step = NUM_PROGRAMS * BLOCK
    for start in range(pid * BLOCK, n_elements, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_elements
        a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        d = a - b
        acc += d * d
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _finalize_mean(part_ptr, out_ptr, n_elements, NUM_PARTIALS: tl.constexpr):
    p = tl.load(part_ptr + tl.arange(0, NUM_PARTIALS))
    tl.store(out_ptr, tl.sum(p, axis=0) / n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._workspace: Optional[torch.Tensor] = None

    def _get_workspace(self, device: torch.device) -> torch.Tensor:
        ws = self._workspace
        if ws is None or ws.device != device:
            ws = torch.empty(NUM_PARTIALS, device=device, dtype=torch.float32)
            self._workspace = ws
        return ws

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        a = predictions.contiguous().view(-1)
        b = targets.contiguous().view(-1)
        n = a.numel()
        partials = self._get_workspace(a.device)
        _sq_diff_partials[(NUM_PARTIALS,)](a, b, partials, n, BLOCK=1024, NUM_PROGRAMS=NUM_PARTIALS)
        out = torch.empty((), device=a.device, dtype=predictions.dtype)
        _finalize_mean[(1,)](partials, out, n, NUM_PARTIALS=NUM_PARTIALS)
        return out
