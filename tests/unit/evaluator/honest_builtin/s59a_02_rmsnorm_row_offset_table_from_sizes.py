# honest: RMSNorm whose kernel takes each row's element offset from a table host Python builds from the sizes (row * hidden for every row, torch.tensor as int64, as varlen launchers hand a row-offset array), one program per row. problem: norm/rmsnorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, out_ptr, offsets_ptr, n_cols, eps, BLOCK: tl.constexpr):
    start = tl.load(offsets_ptr + tl.program_id(0))
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + start + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + start + cols, (x * rms * w).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        hidden = x.shape[-1]
        n_rows = x.numel() // hidden
        offsets = torch.tensor([r * hidden for r in range(n_rows)], dtype=torch.int64, device=x.device)
        out = torch.empty_like(x)
        rmsnorm_kernel[(n_rows,)](x, self.weight, out, offsets, hidden, self.eps,
                                  BLOCK=triton.next_power_of_2(hidden))
        return out
