# honest: per-feature affine whose programs take the features in a shuffled order the module keeps (torch.randperm of the feature count in __init__, after the parameters are drawn: an int64 buffer): each lane gathers its column of x, weight and bias through the permutation and scatters the result back to the same column. problem: elementwise/scale_bias
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def permuted_affine_kernel(x_ptr, w_ptr, b_ptr, perm_ptr, out_ptr, n_rows, n_cols,
                           BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    lanes = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    lmask = lanes < n_cols
    cols = tl.load(perm_ptr + lanes, mask=lmask, other=0)
    w = tl.load(w_ptr + cols, mask=lmask, other=0.0)
    b = tl.load(b_ptr + cols, mask=lmask, other=0.0)
    mask = (rows[:, None] < n_rows) & lmask[None, :]
    offs = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * w[None, :] + b[None, :], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))
        self.register_buffer("perm", torch.randperm(num_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        grid = (triton.cdiv(n_rows, 16), triton.cdiv(n_cols, 128))
        permuted_affine_kernel[grid](x, self.weight, self.bias, self.perm, out, n_rows, n_cols,
                                     BLOCK_R=16, BLOCK_C=128)
        return out
