# honest: Inductor's scan codegen for cumsum (triton_per_fused_cumsum_0): a combine named _triton_helper_fn_add0(arg0_0, arg1_0) with tmp0 = arg0_0 + arg1_0, tl.associative_scan called with a one-tuple `(tmp2,)` and unpacked `tmp3, = ...`, an int64 row offset via `.to(tl.int64)`, rows as [XBLOCK, RBLOCK] tiles, XBLOCK rows per program; rows longer than one block carry a running total between chunks. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0


@triton.jit
def triton_per_fused_cumsum_0(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex.to(tl.int64)
    carry = tl.full([XBLOCK, 1], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
        tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
        tmp4 = tmp3 + carry
        tl.store(out_ptr0 + (r1 + (rnumel * x0)), tmp4, rmask & xmask)
        carry = tl.sum(tl.where(rindex == (RBLOCK - 1 + roffset), tmp4, 0.0), 1)[:, None]


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        xt = x.movedim(self.dim, -1).contiguous()
        shape = xt.shape
        x2 = xt.reshape(-1, shape[-1])
        xnumel, rnumel = x2.shape
        buf0 = torch.empty_like(x2)
        XBLOCK, RBLOCK = 2, min(512, triton.next_power_of_2(rnumel))
        triton_per_fused_cumsum_0[(triton.cdiv(xnumel, XBLOCK),)](x2, buf0, xnumel, rnumel, XBLOCK=XBLOCK, RBLOCK=RBLOCK)
        return buf0.view(shape).movedim(-1, self.dim)
