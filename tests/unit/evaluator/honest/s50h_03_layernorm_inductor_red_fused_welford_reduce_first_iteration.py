# honest: Inductor's looped-reduction LayerNorm (triton_red_fused_native_layer_norm_0) with triton_helpers' welford_reduce / welford_combine / welford written out as jit helpers: welford_reduce branches on the runtime scalar `roffset == 0` (first_iteration), tmpN_mean/_m2/_weight accumulators kept with tl.where(rmask & xmask, ...), a final tl.reduce of the three tuples, rsqrt stored through in_out_ptr0 after tl.debug_barrier(), and a second `for roffset in range(0, rnumel, RBLOCK)` loop applying weight and bias with eviction_policy hints. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return new_mean, new_m2, new_weight


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)


@triton.jit
def triton_red_fused_native_layer_norm_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1,
                                         xnumel, rnumel, eps, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy="evict_last", other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(
            tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0
        )
        tmp2_mean = tl.where(rmask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(rmask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(rmask & xmask, tmp2_weight_next, tmp2_weight)
    tmp2_tmp, tmp3_tmp, tmp4_tmp = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp2_tmp[:, None]
    tmp3 = tmp3_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tmp6 = tmp3 / rnumel
    tmp8 = tmp6 + eps
    tmp9 = libdevice.rsqrt(tmp8)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy="evict_first", other=0.0)
        tmp13 = tl.load(in_ptr1 + (r1), rmask, eviction_policy="evict_last", other=0.0)
        tmp15 = tl.load(in_ptr2 + (r1), rmask, eviction_policy="evict_last", other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = tmp11 * tmp9
        tmp14 = tmp12 * tmp13
        tmp16 = tmp14 + tmp15
        tl.store(out_ptr1 + (r1 + (rnumel * x0)), tmp16, rmask & xmask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        xnumel, rnumel = x2.shape
        buf0 = torch.empty_strided((xnumel, 1), (1, 1), device=x.device, dtype=torch.float32)
        buf3 = torch.empty_strided((xnumel, 1), (1, 1), device=x.device, dtype=torch.float32)
        buf4 = torch.empty_strided((xnumel, rnumel), (rnumel, 1), device=x.device, dtype=torch.float32)
        XBLOCK, RBLOCK = 1, min(2048, triton.next_power_of_2(rnumel))
        grid = (triton.cdiv(xnumel, XBLOCK),)
        triton_red_fused_native_layer_norm_0[grid](buf3, x2, self.norm.weight, self.norm.bias, buf0, buf4,
                                                   xnumel, rnumel, self.norm.eps,
                                                   XBLOCK=XBLOCK, RBLOCK=RBLOCK, num_warps=8)
        return buf4.view(x.shape)
