# honest: Inductor-generated pointwise Mish as people paste it with the helper imports rewritten: a module-level `tl_math = tl.math` alias, triton_poi_fused_mish_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr) with the threshold-20 softplus written as tmp chains (tl_math.exp, libdevice.log1p, tl.where, libdevice.tanh), an empty_strided_cuda-like helper taking the device from the input, and a grid(xnumel) function. problem: activation/mish
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

tl_math = tl.math


@triton.jit
def triton_poi_fused_mish_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = 20.0
    tmp2 = tmp0 > tmp1
    tmp3 = tl_math.exp(tmp0)
    tmp4 = libdevice.log1p(tmp3)
    tmp5 = tl.where(tmp2, tmp0, tmp4)
    tmp6 = libdevice.tanh(tmp5)
    tmp7 = tmp0 * tmp6
    tl.store(out_ptr0 + (x0), tmp7, xmask)


def empty_strided_like(size, stride, like, dtype=torch.float32):
    return torch.empty_strided(size, stride, device=like.device, dtype=dtype)


def grid(xnumel, xblock=1024):
    return (triton.cdiv(xnumel, xblock),)


def call(args):
    arg0_1, = args
    args.clear()
    xnumel = arg0_1.numel()
    buf0 = empty_strided_like(arg0_1.size(), arg0_1.stride(), arg0_1)
    triton_poi_fused_mish_0[grid(xnumel)](arg0_1, buf0, xnumel, XBLOCK=1024, num_warps=4)
    del arg0_1
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return call([x.contiguous()])[0]
