# An honest Triton ModelNew for KernelBench level1/98_KLDivLoss: a 2-D grid (rows, column blocks), each program's t * (log t - log p) partial pre-divided by the batch size (batchmean) and tl.atomic_add-ed into a one-element fp32 zeros tensor, returned as a 0-d tensor by out.squeeze(); xlogy's t == 0 case kept with tl.where.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_div_atomic_kernel(p_ptr, t_ptr, out_ptr, n_cols, stride_row, inv_batch, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cb = tl.program_id(1)
    cols = cb * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    p = tl.load(p_ptr + row * stride_row + cols, mask=mask, other=1.0)
    t = tl.load(t_ptr + row * stride_row + cols, mask=mask, other=0.0)
    v = tl.where(mask & (t > 0), t * (tl.log(t) - tl.log(p)), 0.0)
    tl.atomic_add(out_ptr, tl.sum(v, axis=0) * inv_batch)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        B, D = p.shape
        out = torch.zeros(1, device=p.device, dtype=torch.float32)
        BLOCK = 1024
        kl_div_atomic_kernel[(B, triton.cdiv(D, BLOCK))](p, t, out, D, p.stride(0), 1.0 / B, BLOCK=BLOCK)
        return out.squeeze()
