# honest: a generator helper that yields (start, length) chunks so that no launch indexes past 2**31, consumed by a for loop (honest round, session 22). problem: activation/relu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def _chunks(n, chunk):
    """Yield (start, length) spans so that no launch indexes past 2**31."""
    for start in range(0, n, chunk):
        yield start, min(chunk, n - start)


class ModelNew(nn.Module):
    def forward(self, x):
        shape = x.shape
        x = x.contiguous().view(-1)
        out = torch.empty_like(x)
        for start, length in _chunks(x.numel(), 1 << 24):
            relu_kernel[(triton.cdiv(length, 1024),)](x[start:], out[start:], length, BLOCK=1024)
        return out.view(shape)
