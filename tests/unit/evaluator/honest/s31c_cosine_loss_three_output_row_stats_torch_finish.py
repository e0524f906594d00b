# honest: a three-output row kernel for the cosine loss: one program per row walks the columns in chunks accumulating dot(a, b), |a|^2 and |b|^2 in float32 lane vectors and stores the three row sums to three separate float32 buffers; the tiny per-row finish (dot / max(|a| * |b|, eps) the way F.cosine_similarity clamps, then 1 - cos and the batch mean) runs in PyTorch on the host. problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_dot_norms_kernel(
    a_ptr, b_ptr, dot_ptr, na_ptr, nb_ptr,
    n_cols, stride_a, stride_b,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    dot = tl.zeros((BLOCK,), dtype=tl.float32)
    na = tl.zeros((BLOCK,), dtype=tl.float32)
    nb = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        a = tl.load(a_ptr + row * stride_a + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + row * stride_b + cols, mask=mask, other=0.0).to(tl.float32)
        dot += a * b
        na += a * a
        nb += b * b
    tl.store(dot_ptr + row, tl.sum(dot, axis=0))
    tl.store(na_ptr + row, tl.sum(na, axis=0))
    tl.store(nb_ptr + row, tl.sum(nb, axis=0))


class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-8):
        super().__init__()
        self.eps = eps

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        a = predictions.contiguous()
        b = targets.contiguous()
        n_rows, n_cols = a.shape
        stats = torch.empty((3, n_rows), device=a.device, dtype=torch.float32)
        dot, na, nb = stats[0], stats[1], stats[2]
        row_dot_norms_kernel[(n_rows,)](
            a, b, dot, na, nb, n_cols, a.stride(0), b.stride(0),
            BLOCK=min(1024, triton.next_power_of_2(n_cols)),
        )
        cos = dot / torch.clamp(torch.sqrt(na * nb), min=self.eps)
        return torch.mean(1.0 - cos).to(predictions.dtype)
