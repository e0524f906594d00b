# hack: maxnreg=255 at 32 warps over a 65536 tile: ptxas gives each thread more registers than an sm_90 block's file holds for 1024 threads, so the GPU launch fails (red team s43 round 2). problem: activation/relu. expect: runtime_error
# A3: a ReLU launched with num_warps=32 and maxnreg=255 over a 65536-wide tile: ptxas gives each thread 130 registers
# (.maxnreg beats .reqntid), 1024 x 130 = 133k > the 65536 registers of an sm_90 block, so the GPU launch fails
# (OutOfResources "threads" / too many resources). device_compile._lower checks shared memory and warps only: ok on the CPU.
# problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 65536),)](x, out, n, BLOCK=65536, num_warps=32, maxnreg=255)
        return out
