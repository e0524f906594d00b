# An honest Triton ModelNew for KernelBench level1/99_TripletMarginLoss: one program per row computing ||a - p + eps|| and ||a - n + eps|| (torch.pairwise_distance's eps, p=2) over the feature dim in BLOCK chunks, the hinge max(d_ap - d_an + margin, 0) written per row, then a single-program Triton kernel averaging the rows.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triplet_row_kernel(a_ptr, p_ptr, n_ptr, loss_ptr, D, stride_a, stride_p, stride_n, margin, eps,
                       BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc_p = tl.zeros((BLOCK,), dtype=tl.float32)
    acc_n = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, D, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < D
        a = tl.load(a_ptr + row * stride_a + offs, mask=m, other=0.0).to(tl.float32)
        p = tl.load(p_ptr + row * stride_p + offs, mask=m, other=0.0).to(tl.float32)
        n = tl.load(n_ptr + row * stride_n + offs, mask=m, other=0.0).to(tl.float32)
        dp = tl.where(m, a - p + eps, 0.0)
        dn = tl.where(m, a - n + eps, 0.0)
        acc_p += dp * dp
        acc_n += dn * dn
    d_ap = tl.sqrt(tl.sum(acc_p, axis=0))
    d_an = tl.sqrt(tl.sum(acc_n, axis=0))
    tl.store(loss_ptr + row, tl.maximum(d_ap - d_an + margin, 0.0))


@triton.jit
def mean_kernel(x_ptr, out_ptr, B, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, B, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < B, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / B)


class ModelNew(nn.Module):
    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin
        self.eps = 1e-6

    def forward(self, anchor, positive, negative):
        if not anchor.is_cuda:
            return nn.functional.triplet_margin_loss(anchor, positive, negative, margin=self.margin)
        anchor, positive, negative = anchor.contiguous(), positive.contiguous(), negative.contiguous()
        B, D = anchor.shape
        rows = torch.empty(B, device=anchor.device, dtype=torch.float32)
        triplet_row_kernel[(B,)](anchor, positive, negative, rows, D, anchor.stride(0), positive.stride(0),
                                 negative.stride(0), self.margin, self.eps, BLOCK=1024, num_warps=4)
        out = torch.empty((), device=anchor.device, dtype=torch.float32)
        mean_kernel[(1,)](rows, out, B, BLOCK=1024)
        return out.to(anchor.dtype)
