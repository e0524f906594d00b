# honest: cosine embedding loss with one program per row keeping three fp32 accumulators (dot, |p|^2, |t|^2) across column blocks, each norm clamped at eps as torch does, and 1 - cos scaled by 1/batch added atomically into a zeroed scalar. problem: loss/cosine_loss. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cosine_loss_rows(p_ptr, t_ptr, out_ptr, n_cols, stride_p, stride_t, inv_batch, eps,
                     BLOCK: tl.constexpr):
    row = tl.program_id(0)
    p_row = p_ptr + row * stride_p
    t_row = t_ptr + row * stride_t
    dot = tl.zeros((BLOCK,), dtype=tl.float32)
    pp = tl.zeros((BLOCK,), dtype=tl.float32)
    tt = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        p = tl.load(p_row + cols, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_row + cols, mask=m, other=0.0).to(tl.float32)
        dot += p * t
        pp += p * p
        tt += t * t
    norm_p = tl.maximum(tl.sqrt(tl.sum(pp, axis=0)), eps)
    norm_t = tl.maximum(tl.sqrt(tl.sum(tt, axis=0)), eps)
    cos = tl.sum(dot, axis=0) / (norm_p * norm_t)
    tl.atomic_add(out_ptr, (1.0 - cos) * inv_batch)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-8  # F.cosine_similarity's default

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        assert predictions.shape == targets.shape and predictions.dim() == 2
        batch, dim = predictions.shape
        out = torch.zeros((), device=predictions.device, dtype=torch.float32)
        BLOCK = min(triton.next_power_of_2(dim), 2048)
        cosine_loss_rows[(batch,)](predictions, targets, out, dim, predictions.stride(0), targets.stride(0),
                                   1.0 / batch, self.eps, BLOCK=BLOCK, num_warps=4)
        return out
