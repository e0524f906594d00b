# honest: a weight-prep Triton launch in __init__ (a table packed to float32 once), a warm-up launch at import, a lazily grown workspace from torch.empty kept across forwards, and an lru_cache'd grid. problem: activation/relu
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pack_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask).to(tl.float32), mask=mask)


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def _warm_up():
    # compile once at import, as some libraries do, so the first forward does not pay for it
    t = torch.zeros(16, device="cuda")
    relu_kernel[(1,)](t, t, 16, BLOCK=16)


_warm_up()


@functools.lru_cache(maxsize=None)
def _grid(n: int, block: int) -> tuple[int]:
    return (triton.cdiv(n, block),)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        probe = torch.arange(8, dtype=torch.float32) - 4.0
        packed = torch.empty(8, dtype=torch.float32)
        pack_kernel[(1,)](probe, packed, 8, BLOCK=8)  # weight prep by the kernel in __init__
        self.register_buffer("probe", packed)
        self._workspace = None

    def _out(self, x: torch.Tensor) -> torch.Tensor:
        ws = self._workspace
        if ws is None or ws.numel() < x.numel() or ws.dtype != x.dtype or ws.device != x.device:
            self._workspace = ws = torch.empty(x.numel(), dtype=x.dtype, device=x.device)
        return ws[: x.numel()].view_as(x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        scratch = self._out(x)  # a scratch buffer kept across forwards, cleared by torch
        scratch.zero_()
        out = torch.empty_like(x)
        relu_kernel[_grid(n, 1024)](x, out, n, BLOCK=1024)
        return out
