# honest: Inductor's split reduction for kl_div(reduction="batchmean"): triton_red_fused_div_mul_sub_sum_xlogy_0 writes one partial per program (xnumel programs, each looping rnumel with `_tmp13 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)` and `tl.where(rmask & xmask, _tmp13 + tmp12, _tmp13)`), xlogy written as Inductor lowers it (libdevice.isnan, `tmp0 == 0`, tl_math.log via tl.math, a tl.where chain with float("nan")), then triton_per_fused_..._1 sums the partials and divides by the batch in place through in_out_ptr0. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def triton_red_fused_div_mul_sub_sum_xlogy_0(in_ptr0, in_ptr1, out_ptr0, xnumel, rnumel, numel,
                                             XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp13 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp14 = r1 + (rnumel * x0)
        lmask = rmask & xmask & (tmp14 < numel)
        tmp0 = tl.load(in_ptr0 + tmp14, lmask, eviction_policy="evict_first", other=0.0)
        tmp9 = tl.load(in_ptr1 + tmp14, lmask, eviction_policy="evict_first", other=0.0)
        tmp1 = libdevice.isnan(tmp0).to(tl.int1)
        tmp2 = 0.0
        tmp3 = tmp0 == tmp2
        tmp4 = tl.math.log(tmp0)
        tmp5 = tmp0 * tmp4
        tmp6 = tl.where(tmp3, tmp2, tmp5)
        tmp7 = float("nan")
        tmp8 = tl.where(tmp1, tmp7, tmp6)
        tmp10 = tmp0 * tmp9
        tmp11 = tmp8 - tmp10
        tmp12 = tl.broadcast_to(tmp11, [XBLOCK, RBLOCK])
        _tmp13 = tl.where(lmask, _tmp13 + tmp12, _tmp13)
    tmp13 = tl.sum(_tmp13, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)


@triton.jit
def triton_per_fused_div_mul_sub_sum_xlogy_1(in_out_ptr0, in_ptr0, rnumel, batch, RBLOCK: tl.constexpr):
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    tmp0 = tl.load(in_ptr0 + (rindex), rmask, other=0.0)
    tmp3 = tl.sum(tl.where(rmask, tmp0, 0.0), 1)[:, None]
    tmp5 = tmp3 / batch
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32)), tmp5, None)


class ModelNew(nn.Module):
    def forward(self, predictions, targets):
        # kl_div(input=log q, target=p): sum p*log p - p*log q; in_ptr0 is the target
        p = targets.contiguous()
        logq = predictions.contiguous()
        numel = p.numel()
        xnumel = min(64, triton.cdiv(numel, 1024))
        rnumel = triton.cdiv(numel, xnumel)
        buf0 = torch.empty((xnumel,), device=p.device, dtype=torch.float32)
        triton_red_fused_div_mul_sub_sum_xlogy_0[(xnumel,)](p, logq, buf0, xnumel, rnumel, numel,
                                                            XBLOCK=1, RBLOCK=1024)
        buf1 = torch.empty((), device=p.device, dtype=torch.float32)
        triton_per_fused_div_mul_sub_sum_xlogy_1[(1,)](buf1, buf0, xnumel, float(p.shape[0]),
                                                       RBLOCK=triton.next_power_of_2(xnumel))
        return buf1
