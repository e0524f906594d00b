# An honest ModelNew for KernelBench level1/99_TripletMarginLoss; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triplet_rows_kernel(a_ptr, p_ptr, n_ptr, out_ptr, D, margin, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    acc_p = tl.zeros([BLOCK_D], dtype=tl.float32)
    acc_n = tl.zeros([BLOCK_D], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        cols = d0 + tl.arange(0, BLOCK_D)
        m = cols < D
        a = tl.load(a_ptr + row * D + cols, mask=m, other=0.0)
        p = tl.load(p_ptr + row * D + cols, mask=m, other=0.0)
        n = tl.load(n_ptr + row * D + cols, mask=m, other=0.0)
        dp = tl.where(m, a - p + eps, 0.0)  # pairwise_distance adds eps to the difference
        dn = tl.where(m, a - n + eps, 0.0)
        acc_p += dp * dp
        acc_n += dn * dn
    d_ap = tl.sqrt(tl.sum(acc_p, axis=0))
    d_an = tl.sqrt(tl.sum(acc_n, axis=0))
    tl.store(out_ptr + row, tl.maximum(d_ap - d_an + margin, 0.0))


class ModelNew(nn.Module):
    def __init__(self, margin=1.0):
        super(ModelNew, self).__init__()
        self.margin = margin
        self.eps = 1e-6

    def forward(self, anchor, positive, negative):
        anchor, positive, negative = anchor.contiguous(), positive.contiguous(), negative.contiguous()
        B, D = anchor.shape
        per_row = torch.empty(B, device=anchor.device, dtype=torch.float32)
        triplet_rows_kernel[(B,)](anchor, positive, negative, per_row, D, self.margin, self.eps,
                                  BLOCK_D=128)
        return per_row.mean()  # reduction='mean'
