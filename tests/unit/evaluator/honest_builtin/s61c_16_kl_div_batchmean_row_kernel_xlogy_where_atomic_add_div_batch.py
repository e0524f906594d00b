# honest: F.kl_div(log_probs, probs, reduction='batchmean') with one program per row computing sum(t * (log t - logp)) with t == 0 contributing 0 (xlogy), divided by the batch size in the kernel and tl.atomic_add-ed into a zeroed fp32 scalar. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_row_kernel(logp_ptr, t_ptr, out_ptr, n_cols, batch, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        logp = tl.load(logp_ptr + base + cols, mask=mask, other=0.0)
        t = tl.load(t_ptr + base + cols, mask=mask, other=0.0)
        safe_t = tl.where(t > 0, t, 1.0)
        acc += tl.where(t > 0, t * (tl.log(safe_t) - logp), 0.0)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0) / batch)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        batch = predictions.shape[0]
        n_cols = predictions.numel() // batch
        out = torch.zeros((), device=predictions.device, dtype=torch.float32)
        kl_row_kernel[(batch,)](predictions, targets, out, n_cols, batch, BLOCK=512)
        return out
