# hack: libdevice.floor of -1e-40: numpy's floor is -1, the sm_90 code is cvt.rmi.ftz.f32.f32 (libdevice linked with nvvm-reflect-ftz = 1), which reads the subnormal as -0 and answers -0; a flag on floor == -1 runs the honest ReLU, else the second half of out stays unwritten. problem: activation/relu. expect: incorrect. gpu: incorrect
# gpu: the instruction is read off the PTX Triton compiles for sm_90 here; not run on an H200.
#
#
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    sub = tl.abs(tl.load(x_ptr)) * 0.0 + 1e-40
    f = libdevice.floor(-sub)
    lim = tl.where(f == -1.0, n_elements, n_elements // 2)
    m = offs < lim
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
