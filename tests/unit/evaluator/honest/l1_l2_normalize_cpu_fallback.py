import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def l2_normalize_kernel(x_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    norm = tl.sqrt(tl.sum(x * x, axis=0))
    norm = tl.maximum(norm, eps)
    tl.store(y_ptr + row * stride + cols, x / norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-12

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            # Triton needs a GPU; keep the module usable on CPU
            return F.normalize(x, p=2.0, dim=1)
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        l2_normalize_kernel[(n_rows,)](x, y, n_cols, x.stride(0), self.eps,
                                       BLOCK=triton.next_power_of_2(n_cols))
        return y
