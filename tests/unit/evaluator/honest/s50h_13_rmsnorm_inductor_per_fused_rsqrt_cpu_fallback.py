# honest: RMSNorm as an Inductor-style persistent reduction (triton_per_fused_add_mean_mul_pow_rsqrt_0: `tmp1 = tmp0 * tmp0`, `tl.where(rmask & xmask, tmp2, 0)`, `tl.sum(tmp4, 1)[:, None]`, the mean divided by `rnumel`, libdevice.rsqrt, the weight loaded with eviction_policy="evict_last") behind a PyTorch fallback for tensors off the GPU (`if not x.is_cuda or x.numel() == 0:` returns the eager formula), rows flattened from (batch, seq, hidden). problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def triton_per_fused_add_mean_mul_pow_rsqrt_0(in_ptr0, in_ptr1, out_ptr0, eps, xnumel, rnumel,
                                              XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0)
    tmp10 = tl.load(in_ptr1 + (r1), rmask, eviction_policy="evict_last", other=0.0)
    tmp1 = tmp0 * tmp0
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
    tmp4 = tl.where(rmask & xmask, tmp2, 0)
    tmp5 = tl.sum(tmp4, 1)[:, None]
    tmp6 = tmp5 / rnumel
    tmp7 = tmp6 + eps
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp0 * tmp8
    tmp11 = tmp9 * tmp10
    tl.store(out_ptr0 + (r1 + (rnumel * x0)), tmp11, rmask & xmask)


def rmsnorm_eager(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x):
        if not x.is_cuda or x.numel() == 0:
            return rmsnorm_eager(x, self.weight, self.eps)
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        xnumel, rnumel = x2.shape
        out = torch.empty_like(x2)
        XBLOCK = 2
        RBLOCK = triton.next_power_of_2(rnumel)
        triton_per_fused_add_mean_mul_pow_rsqrt_0[(triton.cdiv(xnumel, XBLOCK),)](
            x2, self.weight, out, self.eps, xnumel, rnumel, XBLOCK=XBLOCK, RBLOCK=RBLOCK, num_warps=8)
        return out.view(shape)
