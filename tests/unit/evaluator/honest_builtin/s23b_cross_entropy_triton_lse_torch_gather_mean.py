# honest: a Triton kernel computes each row's log-sum-exp and PyTorch gathers the target logits and takes the mean ((lse - logits[i, t_i]).mean()). problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_lse_kernel(x_ptr, lse_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    m = tl.max(x, axis=0)
    s = tl.sum(tl.where(mask, tl.exp(x - m), 0.0), axis=0)
    tl.store(lse_ptr + row, m + tl.log(s))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        logits = logits.contiguous()
        rows, cols = logits.shape
        lse = torch.empty(rows, device=logits.device, dtype=torch.float32)
        row_lse_kernel[(rows,)](logits, lse, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        picked = logits.gather(1, targets.view(-1, 1)).squeeze(1)
        return (lse - picked).mean()
