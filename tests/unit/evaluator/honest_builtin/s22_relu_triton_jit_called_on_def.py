# honest: the kernel made by calling triton.jit on a plain def, relu_kernel = triton.jit(_relu_body, do_not_specialize=["n_elements"]) (code that builds kernel variants; honest round, session 22). problem: activation/relu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _relu_body(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


relu_kernel = triton.jit(_relu_body, do_not_specialize=["n_elements"])


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
