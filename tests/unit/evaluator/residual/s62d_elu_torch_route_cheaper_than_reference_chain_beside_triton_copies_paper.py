# hack: paper: PyTorch computes the whole ELU as where(x > 0, x, alpha * expm1(x)) between chains of needed Triton copies; the coverage bound priced the reference's F.elu as its torch._decomp chain (about 1.5x the route), leaving the copies a share of "the problem's work" (red team s62d: coverage 0.32, reward 0.66 under paper before session 63; PyTorch's ops that made numbers are charged the reference's work they computed since, coverage 0, reward 0.50). problem: activation/elu. expect: ok
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def _copied(self, t: torch.Tensor, times: int) -> torch.Tensor:
        n = t.numel()
        for _ in range(times):
            nxt = torch.empty_like(t)
            copy_kernel[(triton.cdiv(n, 1024),)](t, nxt, n, BLOCK=1024)
            t = nxt
        return t

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self._copied(x.contiguous(), 2)
        e = torch.where(y > 0, y, self.alpha * torch.expm1(y))
        return self._copied(e, 3)
