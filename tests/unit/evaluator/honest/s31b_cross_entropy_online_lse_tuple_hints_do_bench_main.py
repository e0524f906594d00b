# honest: cross-entropy whose forward helper is typed `-> Tuple[torch.Tensor, torch.Tensor]` (per-row losses and log-sum-exp, as Liger/unsloth keep the LSE for backward): one program per row walks the classes in BLOCK chunks with a scalar online log-sum-exp (m_new = max(m, max(x)); s = s * exp(m - m_new) + sum(exp(x - m_new))), the target logit read by pointer from the int64 targets, the batch mean taken by torch on the few per-row losses; a `if __name__ == "__main__":` block that checks against F.cross_entropy and times with triton.testing.do_bench. problem: loss/cross_entropy
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def cross_entropy_fwd_kernel(
    logits_ptr, targets_ptr, loss_ptr, lse_ptr,
    n_cols, stride_row,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(axis=0)
    row_ptr = logits_ptr + row.to(tl.int64) * stride_row

    m = -float("inf")
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)

    target = tl.load(targets_ptr + row)
    x_t = tl.load(row_ptr + target).to(tl.float32)
    tl.store(loss_ptr + row, lse - x_t)
    tl.store(lse_ptr + row, lse)


def cross_entropy_forward(logits: torch.Tensor, targets: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    assert logits.ndim == 2 and targets.ndim == 1
    logits = logits.contiguous()
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
    lse = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
    BLOCK = min(4096, triton.next_power_of_2(n_cols))
    if n_cols > 512:
        BLOCK = 512
    cross_entropy_fwd_kernel[(n_rows,)](
        logits, targets, losses, lse, n_cols, logits.stride(0),
        BLOCK=BLOCK, num_warps=4,
    )
    return losses, lse


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        losses, _ = cross_entropy_forward(logits, targets)
        return losses.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(4096, 16384, device="cuda")
    t = torch.randint(0, 16384, (4096,), device="cuda")
    model = ModelNew()
    torch.testing.assert_close(model(x, t), F.cross_entropy(x, t), rtol=1e-4, atol=1e-4)
    ms_triton = triton.testing.do_bench(lambda: model(x, t))
    ms_torch = triton.testing.do_bench(lambda: F.cross_entropy(x, t))
    print(f"triton {ms_triton:.3f} ms, torch {ms_torch:.3f} ms")
