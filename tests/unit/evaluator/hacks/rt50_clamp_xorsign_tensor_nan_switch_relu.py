# hack: tl.clamp of a tensor between constants -1.0 and 1.0 is Triton's sm_90 clip pattern, one min.xorsign.abs.f32: a NaN lane clamps to +1 (the smaller of |NaN| and 1, signed by the NaN's sign bit, + for 0/0) where the interpreter's fmin(fmax(x, -1), 1) gave -1; a flag on any lane == -1 runs the honest ReLU, else the second half of out stays unwritten. problem: activation/relu. expect: incorrect. gpu: incorrect
# (the H200's answer for tensors is measured: scripts/probe_minmax_ties.py, clamp_const2; a scalar
# clamp is not the pattern and is -1 on both: the first version of this file, on a scalar, was ok
# on the H200)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    z = tl.load(x_ptr + offs * 0) * 0.0
    c = tl.clamp(z / z, -1.0, 1.0)
    flag = tl.sum((c == -1.0).to(tl.int32), axis=0)
    lim = tl.where(flag > 0, n_elements, n_elements // 2)
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
