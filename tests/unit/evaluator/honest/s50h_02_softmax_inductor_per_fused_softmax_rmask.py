# honest: Inductor's persistent-reduction softmax (triton_per_fused__softmax_0) tidied by hand: xindex as a [XBLOCK, 1] column and rindex as a [1, RBLOCK] row, `rmask & xmask` loads with other=0.0, tl.where(..., float("-inf")) before the row max, triton_helpers-style max2 written out as a jit helper over tl.reduce with tl.maximum, `[:, None]` re-broadcasts, tl.full for the numbered constants, XBLOCK=1 per row and RBLOCK the next power of two. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _maximum(a, b):
    return tl.maximum(a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, _maximum)


@triton.jit
def triton_per_fused__softmax_0(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = max2(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, tl.full([XBLOCK, RBLOCK], 0.0, tl.float32))
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r1 + (rnumel * x0)), tmp11, rmask & xmask)


def call(args):
    arg0_1, = args
    args.clear()
    xnumel, rnumel = arg0_1.shape
    buf2 = torch.empty_strided((xnumel, rnumel), (rnumel, 1), device=arg0_1.device, dtype=torch.float32)
    RBLOCK = triton.next_power_of_2(rnumel)
    triton_per_fused__softmax_0[(xnumel,)](arg0_1, buf2, xnumel, rnumel, XBLOCK=1, RBLOCK=RBLOCK,
                                           num_warps=8 if RBLOCK >= 2048 else 4)
    del arg0_1
    return (buf2,)


class ModelNew(nn.Module):
    def forward(self, x):
        shape = x.shape
        return call([x.reshape(-1, shape[-1]).contiguous().float()])[0].view(shape)
