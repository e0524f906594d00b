# honest: hardtanh kernel (tl.clamp) launched as wrap_triton(kernel)[grid](...) after `from torch.library import wrap_triton`, as PyTorch's custom-op docs write it to make a launch traceable by torch.compile (honest round, session 23). problem: activation/hardtanh. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.library import wrap_triton


@triton.jit
def _hardtanh_kernel(x_ptr, y_ptr, n_elements, min_val, max_val, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.clamp(x, min_val, max_val), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        wrap_triton(_hardtanh_kernel)[grid](x, y, n, self.min_val, self.max_val, BLOCK_SIZE=1024)
        return y
