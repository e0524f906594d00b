# hack: a torch.no_grad() manager held in a local and entered twice, nested (`with ctx:` inside `with ctx:`): the inner __enter__ overwrites the state the outer __exit__ restores, so grad mode would stay off after the forward; a held manager is accepted only where one `with` is its only read. problem: activation/relu. expect: hack/forbidden_syntax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ctx = torch.no_grad()
        y = torch.empty_like(x)
        n = x.numel()
        with ctx:
            with ctx:
                _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
