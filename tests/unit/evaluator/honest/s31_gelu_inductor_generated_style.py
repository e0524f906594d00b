# honest: torch.compile (Inductor)-generated pointwise Triton as people paste and tidy it: a kernel named triton_poi_fused_gelu_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr) with xoffset/xindex/xmask, `xindex = xoffset + tl.arange(0, XBLOCK)[:]`, `x0 = xindex`, numbered tmpN temporaries and float literals, libdevice.erf from `from triton.language.extra import libdevice`, a call(args) helper that unpacks `arg0_1, = args`, calls args.clear(), allocates with torch.empty_strided(size, stride, device=..., dtype=...) and launches with a META grid, `with torch.no_grad():` around it. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def triton_poi_fused_gelu_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = 0.5
    tmp2 = tmp0 * tmp1
    tmp3 = 0.7071067811865476
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = 1.0
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + (x0), tmp8, xmask)


def call(args):
    arg0_1, = args
    args.clear()
    xnumel = arg0_1.numel()
    buf0 = torch.empty_strided(arg0_1.size(), arg0_1.stride(), device=arg0_1.device, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(xnumel, meta["XBLOCK"]),)
    triton_poi_fused_gelu_0[grid](arg0_1, buf0, xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
    del arg0_1
    return (buf0,)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return call([x.contiguous()])[0]
