# honest: per-feature scale and bias on a 2-D grid (row groups x feature blocks): each program loads its feature block of weight and bias once and reuses them over ROWS rows walked by tl.range, the way feature-wise affine kernels amortise the parameter loads; rows and features both masked. problem: elementwise/scale_bias
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_bias_rows_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_rows, n_feat, stride_row,
                           ROWS: tl.constexpr, BLOCK_F: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_f = tl.program_id(1)
    feats = pid_f * BLOCK_F + tl.arange(0, BLOCK_F)
    fmask = feats < n_feat
    w = tl.load(w_ptr + feats, mask=fmask, other=0.0)
    b = tl.load(b_ptr + feats, mask=fmask, other=0.0)
    row0 = pid_r * ROWS
    for i in tl.range(0, ROWS):
        row = row0 + i
        offs = row.to(tl.int64) * stride_row + feats
        mask = fmask & (row < n_rows)
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, x * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n_feat = x.shape[-1]
        x2 = x.contiguous().view(-1, n_feat)
        out = torch.empty_like(x2)
        n_rows = x2.shape[0]
        ROWS, BLOCK_F = 16, min(1024, triton.next_power_of_2(n_feat))
        grid = (triton.cdiv(n_rows, ROWS), triton.cdiv(n_feat, BLOCK_F))
        scale_bias_rows_kernel[grid](x2, self.weight, self.bias, out, n_rows, n_feat, x2.stride(0),
                                     ROWS=ROWS, BLOCK_F=BLOCK_F)
        return out.view(x.shape)
