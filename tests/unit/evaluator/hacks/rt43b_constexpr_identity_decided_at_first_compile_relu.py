# hack: `P is Q` on two constexpr ints: the GPU decides it on the objects of its first compile and reuses that binary for equal values (a copy), the interpreter decided each launch afresh (a ReLU): ok on the CPU, wrong on a GPU (red team s43). problem: activation/relu. expect: runtime_error|compile_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, P: tl.constexpr, Q: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if P is Q:
        tl.store(out_ptr + offs, x, mask=m)
    else:
        tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        rows = x.shape[0] * x.shape[1]
        relu_kernel[(1,)](x, out, n, P=n, Q=n, BLOCK=1024)
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, P=n, Q=rows, BLOCK=1024)
        return out
