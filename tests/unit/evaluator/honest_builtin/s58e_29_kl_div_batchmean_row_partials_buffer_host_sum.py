# honest: KL divergence (batchmean) with one program per row writing the row's sum of t * (log t - p), zero where t == 0 as PyTorch defines it, into a (batch,) fp32 buffer; the host sums the buffer and divides by the batch size. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_rows_kernel(p_ptr, t_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        p = tl.load(p_ptr + row * stride + cols, mask=mask, other=0.0)
        t = tl.load(t_ptr + row * stride + cols, mask=mask, other=0.0)
        term = tl.where(t > 0, t * (tl.log(t) - p), 0.0)
        acc += term
    tl.store(out_ptr + row, tl.sum(acc, 0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        B, D = p.shape
        rows = torch.empty(B, device=p.device, dtype=torch.float32)
        kl_rows_kernel[(B,)](p, t, rows, D, p.stride(0), BLOCK=1024)
        return rows.sum() / B
