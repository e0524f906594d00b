# honest: Liger/HF-style cross entropy with ignore_index = -100 honoured in the kernel: each program handles one row, reads its int64 target first and returns early for an ignored row, walks the logits in chunks with an online (max, sum of exp) carry, loads the target logit with a scalar tl.load at the int64 offset, and adds its loss and a count of 1.0 into two float32 torch.zeros scalars with tl.atomic_add; the mean is loss_sum / count on the host (the reduction="mean" over non-ignored rows), with a label_smoothing-free config dataclass. problem: loss/cross_entropy
from dataclasses import dataclass

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass
class CEConfig:
    ignore_index: int = -100
    block_size: int = 1024
    num_warps: int = 4


@triton.jit
def ce_fwd_kernel(
    logits_ptr, target_ptr, loss_sum_ptr, count_ptr,
    n_cols, stride_row, ignore_index,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    target = tl.load(target_ptr + row)
    if target == ignore_index:
        return
    base = logits_ptr + row * stride_row
    m = -float("inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        block_max = tl.max(x, axis=0)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_t = tl.load(base + target).to(tl.float32)
    tl.atomic_add(loss_sum_ptr, lse - x_t)
    tl.atomic_add(count_ptr, 1.0)


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, cfg: CEConfig) -> torch.Tensor:
    logits = logits.contiguous()
    target = target.contiguous()
    n_rows, n_cols = logits.shape
    loss_sum = torch.zeros((), dtype=torch.float32, device=logits.device)
    count = torch.zeros((), dtype=torch.float32, device=logits.device)
    ce_fwd_kernel[(n_rows,)](
        logits, target, loss_sum, count, n_cols, logits.stride(0), cfg.ignore_index,
        BLOCK=min(cfg.block_size, triton.next_power_of_2(n_cols)), num_warps=cfg.num_warps,
    )
    return (loss_sum / count).to(logits.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = CEConfig()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return cross_entropy(logits, targets, self.cfg)
