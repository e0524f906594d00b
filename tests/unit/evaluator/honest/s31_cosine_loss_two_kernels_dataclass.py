# honest: cosine-similarity loss in two launches per forward: a per-row kernel that walks the columns in BLOCK chunks with `for off in tl.range(0, n_cols, BLOCK, num_stages=2)` accumulating dot, |a|^2 and |b|^2 vectors, then cos = dot / max(sqrt(|a|^2 * |b|^2), eps) with tl.math.sqrt written to a per-row buffer from torch.empty_strided; a second single-program kernel reduces that buffer and writes 1 - mean into a 0-dim output. A frozen dataclass for the launch config, type hints, a docstring, .contiguous() glue, keyword launch arguments. problem: loss/cosine_loss
from dataclasses import dataclass

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchConfig:
    block: int = 1024
    num_warps: int = 4
    finish_block: int = 1024


@triton.jit
def _row_cosine_kernel(a_ptr, b_ptr, cos_ptr, n_cols, stride_a, stride_b, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    a_row = a_ptr + row * stride_a
    b_row = b_ptr + row * stride_b
    dot = tl.zeros([BLOCK], dtype=tl.float32)
    aa = tl.zeros([BLOCK], dtype=tl.float32)
    bb = tl.zeros([BLOCK], dtype=tl.float32)
    for off in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = off + tl.arange(0, BLOCK)
        m = cols < n_cols
        a = tl.load(a_row + cols, mask=m, other=0.0).to(tl.float32)
        b = tl.load(b_row + cols, mask=m, other=0.0).to(tl.float32)
        dot += a * b
        aa += a * a
        bb += b * b
    num = tl.sum(dot, axis=0)
    denom = tl.math.sqrt(tl.sum(aa, axis=0) * tl.sum(bb, axis=0))
    tl.store(cos_ptr + row, num / tl.maximum(denom, eps))


@triton.jit
def _one_minus_mean_kernel(cos_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_rows, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(cos_ptr + idx, mask=idx < n_rows, other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr, 1.0 - total / n_rows)


def cosine_loss(a: torch.Tensor, b: torch.Tensor, cfg: LaunchConfig = LaunchConfig(), eps: float = 1e-8) -> torch.Tensor:
    """mean(1 - cos(a_i, b_i)) over rows of two (batch, dim) tensors."""
    a = a.contiguous()
    b = b.contiguous()
    n_rows, n_cols = a.shape
    cos = torch.empty_strided((n_rows,), (1,), dtype=torch.float32, device=a.device)
    _row_cosine_kernel[(n_rows,)](a, b, cos, n_cols, a.stride(0), b.stride(0), eps,
                                  BLOCK=min(cfg.block, triton.next_power_of_2(n_cols)), num_warps=cfg.num_warps)
    out = torch.empty((), dtype=torch.float32, device=a.device)
    _one_minus_mean_kernel[(1,)](cos, out, n_rows, BLOCK=cfg.finish_block)
    return out.to(a.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = LaunchConfig()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return cosine_loss(predictions, targets, self.cfg)
