# honest: Inductor's broadcast add (triton_poi_fused_add_0) for x (B, C, L) + offset (1, C, 1): a flat xindex over B*C*L, `x2 = xindex` and `x1 = (xindex // ks0) % ks1` for the channel with ks0/ks1 passed as size symbols, the offset loaded with eviction_policy="evict_last", a size-hinted XBLOCK chosen on the host from xnumel (512 or 1024) the way Inductor's pointwise heuristics pick it, and num_warps from it. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triton_poi_fused_add_0(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x1 = (xindex // ks0) % ks1
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy="evict_last")
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x2), tmp2, xmask)


def pointwise_config(xnumel):
    xblock = 1024 if xnumel >= 1 << 16 else 512
    return xblock, 4 if xblock <= 512 else 8


class ModelNew(nn.Module):
    def forward(self, x, offset):
        x = x.contiguous()
        b, c, l = x.shape
        off = offset.reshape(c).contiguous()
        buf0 = torch.empty_strided((b, c, l), (c * l, l, 1), device=x.device, dtype=torch.float32)
        xnumel = x.numel()
        XBLOCK, warps = pointwise_config(xnumel)
        triton_poi_fused_add_0[(triton.cdiv(xnumel, XBLOCK),)](x, off, buf0, l, c, xnumel,
                                                               XBLOCK=XBLOCK, num_warps=warps)
        return buf0
