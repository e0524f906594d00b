# honest: F.normalize as one Triton program per row with the whole row in one block (BLOCK = next_power_of_2(dim)), the norm sqrt(sum(x*x)) clamped below by eps = 1e-12 as F.normalize does, then x / norm into a torch.empty_like output; a torch fallback when the input is not on CUDA. problem: norm/l2_normalize
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def l2_normalize_row_kernel(x_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    norm = tl.sqrt(tl.sum(x * x, axis=0))
    norm = tl.maximum(norm, eps)
    tl.store(y_ptr + row * stride + cols, x / norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-12

    def forward(self, x):
        if not x.is_cuda:
            return F.normalize(x, p=2.0, dim=1)
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = triton.next_power_of_2(n_cols)
        num_warps = min(max(BLOCK // 256, 1), 16)
        l2_normalize_row_kernel[(n_rows,)](x, y, n_cols, x.stride(0), self.eps,
                                           BLOCK=BLOCK, num_warps=num_warps)
        return y
