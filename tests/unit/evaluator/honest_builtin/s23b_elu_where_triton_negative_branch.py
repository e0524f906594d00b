# honest: a Triton kernel computes alpha * expm1(x) for the negative branch and torch.where picks it or x by PyTorch's own mask (torch.where over a Triton output and a torch tensor). problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def neg_branch_kernel(x_ptr, out_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, alpha * (tl.exp(tl.minimum(x, 0.0)) - 1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        x = x.contiguous()
        neg = torch.empty_like(x)
        n = x.numel()
        neg_branch_kernel[(triton.cdiv(n, 1024),)](x, neg, n, self.alpha, BLOCK_SIZE=1024)
        return torch.where(x > 0, x, neg)
