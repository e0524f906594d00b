# An honest Triton ModelNew for KernelBench level1/98_KLDivLoss: one program per row looping over BLOCK-wide column chunks, t * (log t - log p) with t == 0 masked to 0 (PyTorch's xlogy convention), fp32 per-row partial sums in Triton, then torch glue: partials.sum() / batch for 'batchmean'.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_div_rows_kernel(p_ptr, t_ptr, partial_ptr, n_cols, stride_p, stride_t, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        p = tl.load(p_ptr + row * stride_p + cols, mask=mask, other=1.0).to(tl.float32)
        t = tl.load(t_ptr + row * stride_t + cols, mask=mask, other=0.0).to(tl.float32)
        term = tl.where(t > 0, t * (tl.log(t) - tl.log(p)), 0.0)
        acc += tl.where(mask, term, 0.0)
    tl.store(partial_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        batch = predictions.shape[0]
        p2 = predictions.view(batch, -1)
        t2 = targets.view(batch, -1)
        n_cols = p2.shape[1]
        partial = torch.empty(batch, device=predictions.device, dtype=torch.float32)
        BLOCK = min(4096, triton.next_power_of_2(n_cols))
        kl_div_rows_kernel[(batch,)](p2, t2, partial, n_cols, p2.stride(0), t2.stride(0), BLOCK=BLOCK)
        return partial.sum() / batch
