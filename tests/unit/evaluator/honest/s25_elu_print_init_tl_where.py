# honest: ELU with a print() in __init__ and in forward's first call guarded by a flag on self, alpha passed as a float argument, tl.where over an exp(min(x, 0)) - 1 branch, a CPU-friendly x.numel() == 0 early return. problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def elu_kernel(x_ptr, y_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    neg = alpha * (tl.exp(tl.minimum(x, 0.0)) - 1.0)
    tl.store(y_ptr + offs, tl.where(x > 0.0, x, neg), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha
        self._announced = False
        print(f"ModelNew: Triton ELU, alpha={alpha}")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.numel() == 0:
            return torch.empty_like(x)
        if not self._announced:
            print(f"ModelNew: first call on {tuple(x.shape)} {x.dtype}")
            self._announced = True
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        elu_kernel[(triton.cdiv(n, BLOCK),)](x, y, self.alpha, n, BLOCK=BLOCK)
        return y
