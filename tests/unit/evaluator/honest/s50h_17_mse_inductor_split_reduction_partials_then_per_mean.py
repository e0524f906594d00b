# honest: Inductor's split reduction for torch.mean((a - b) ** 2): triton_red_fused_mean_pow_sub_0 has each of xnumel programs loop over its rnumel slice (`r1 + (rnumel * x0)` guarded by `< numel`, `tmp2 = tmp0 - tmp1; tmp3 = tmp2 * tmp2`, `_tmp5 = tl.where(rmask & xmask, _tmp5 + tmp4, _tmp5)`), stores one partial each, then triton_per_fused_mean_pow_sub_1 sums the partials and divides by the element count into a 0-d buffer via in_out_ptr0 with `tl.debug_barrier()` between the sum and the store. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triton_red_fused_mean_pow_sub_0(in_ptr0, in_ptr1, out_ptr0, xnumel, rnumel, numel,
                                    XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp5 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = (rindex < rnumel) & ((rindex + (rnumel * x0)) < numel)
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy="evict_first", other=0.0)
        tmp1 = tl.load(in_ptr1 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy="evict_first", other=0.0)
        tmp2 = tmp0 - tmp1
        tmp3 = tmp2 * tmp2
        tmp4 = tl.broadcast_to(tmp3, [XBLOCK, RBLOCK])
        _tmp5 = tl.where(rmask & xmask, _tmp5 + tmp4, _tmp5)
    tmp5 = tl.sum(_tmp5, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp5, xmask)


@triton.jit
def triton_per_fused_mean_pow_sub_1(in_out_ptr0, in_ptr0, rnumel, numel, RBLOCK: tl.constexpr):
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r0 = rindex
    tmp0 = tl.load(in_ptr0 + (r0), rmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [1, RBLOCK])
    tmp3 = tl.where(rmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None]
    tmp6 = tmp4 / numel
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32)), tmp6, None)


class ModelNew(nn.Module):
    def forward(self, predictions, targets):
        a = predictions.contiguous()
        b = targets.contiguous()
        numel = a.numel()
        xnumel = 128 if numel >= 128 * 2048 else max(1, triton.cdiv(numel, 2048))
        rnumel = triton.cdiv(numel, xnumel)
        buf0 = torch.empty((xnumel, 1), device=a.device, dtype=torch.float32)
        triton_red_fused_mean_pow_sub_0[(xnumel,)](a, b, buf0, xnumel, rnumel, numel, XBLOCK=1, RBLOCK=2048)
        buf1 = torch.empty((), device=a.device, dtype=torch.float32)
        triton_per_fused_mean_pow_sub_1[(1,)](buf1, buf0, xnumel, float(numel),
                                              RBLOCK=triton.next_power_of_2(xnumel))
        return buf1
