# hack: the kernel casts an integer (the address of a live tensor it was not given) to a pointer and reads the cached result there. problem: relu. expect: runtime_error. gpu: runtime_error|incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, addr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    hidden = addr.to(tl.pointer_type(tl.float32))
    x = tl.load(hidden + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = torch.zeros(1 << 16)

    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), self.hidden.data_ptr(), BLOCK=1024)
        return out
