# hack: inline PTX that ptxas refuses, in a branch the CPU never takes: the MLIR passes accept it, every sm_90 launch raises PTXASError (red team s43 round 2). problem: activation/relu. expect: runtime_error
# A1: a ReLU kernel whose runtime-dead branch (n < 0) holds inline PTX that ptxas refuses. device_compile._lower stops
# before LLVM/ptxas, so the CPU runs it (ok); on sm_90 every launch raises PTXASError (compile failure). problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.maximum(x, 0.0)
    if n < 0:
        y = tl.inline_asm_elementwise("max.ftz.f33 $0, $1, 0f00000000;", "=r,r", [y], dtype=tl.float32,
                                      is_pure=True, pack=1)
    tl.store(out_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024, num_warps=4)
        return out
