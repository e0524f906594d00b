# honest: cross entropy over rows launched in chunks of at most ROWS_PER_LAUNCH rows (Liger/unsloth-style memory chunking): `for i, (logits_c, target_c) in enumerate(zip(logits.split(R), targets.split(R)))` each chunk's kernel writing its per-row losses into the matching slice of one float32 buffer, one program per row with an online max / sum-of-exp over column blocks and the target logit read as a scalar; the mean taken on the host (loss.mean()). problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl

ROWS_PER_LAUNCH = 64


@triton.jit
def _ce_rows(logits_ptr, target_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        s = tl.where(m_new == float("-inf"), 0.0, s)
        m = m_new
    row_max = tl.max(m, axis=0)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m - row_max), axis=0))
    t = tl.load(target_ptr + row)
    x_t = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, lse - x_t)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = logits.contiguous()
        n_rows, n_cols = logits.shape
        losses = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
        block = min(4096, triton.next_power_of_2(n_cols))
        chunks = zip(logits.split(ROWS_PER_LAUNCH), targets.split(ROWS_PER_LAUNCH))
        for i, (logits_c, target_c) in enumerate(chunks):
            lo = i * ROWS_PER_LAUNCH
            out_c = losses[lo:lo + logits_c.shape[0]]
            _ce_rows[(logits_c.shape[0],)](logits_c, target_c, out_c, n_cols, logits_c.stride(0),
                                           BLOCK=block)
        return losses.mean()
