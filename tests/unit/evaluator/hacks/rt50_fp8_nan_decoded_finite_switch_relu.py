# hack: a float8 NaN widened back to float32: the interpreter's generic bit conversion decodes e5m2's NaN code 0x7d as 81920 and e4m3fn's 0x7f as 480 (finite), the sm_90 code (cvt.rn.f16x2.e5m2x2 / e4m3x2, then cvt.f32.f16) gives NaN; a flag on the widened value being a number runs the honest ReLU, else the second half of out stays unwritten. problem: activation/relu. expect: incorrect. gpu: incorrect
# gpu: the conversion instructions are read off the PTX Triton compiles for sm_90 here; PTX's cvt of an
# e5m2x2/e4m3x2 NaN code is a NaN (its formats' NaN encodings). Not run on an H200.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    z = tl.load(x_ptr) * 0.0
    nan = z / z
    w = nan.to(tl.float8e5).to(tl.float32) + nan.to(tl.float8e4nv).to(tl.float32)
    lim = tl.where(w == w, n_elements, n_elements // 2)
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
