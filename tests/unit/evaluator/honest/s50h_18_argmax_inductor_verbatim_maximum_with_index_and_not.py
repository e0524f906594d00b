# honest: Inductor's looped argmax (triton_red_fused_argmax_0) with triton_helpers' promote_to_tensor / is_floating / maximum_with_index / max_with_index written out: a compile-time `if is_floating(a_value):` NaN branch inside the combine, `mask |= a_isnan and not b_isnan`, accumulators started with tl.full(..., float("-inf")) and tl.full(..., 9223372036854775807, tl.int64), `_tmp2, _tmp2_index` updated by tl.where(rmask & xmask, ...), and `_, tmp2_tmp = max_with_index(...)` unpacking. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    mask = a_value > b_value
    equal = a_value == b_value
    if is_floating(a_value):
        a_isnan = a_value != a_value
        b_isnan = b_value != b_value
        mask |= a_isnan and not b_isnan
        equal |= a_isnan and b_isnan
    mask |= equal & (a_index < b_index)
    return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)


@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)


@triton.jit
def triton_red_fused_argmax_0(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    _tmp2_index = tl.full([XBLOCK, RBLOCK], 9223372036854775807, tl.int64)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy="evict_first", other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        _tmp2_next, _tmp2_index_next = maximum_with_index(_tmp2, _tmp2_index, tmp1, rindex)
        _tmp2 = tl.where(rmask & xmask, _tmp2_next, _tmp2)
        _tmp2_index = tl.where(rmask & xmask, _tmp2_index_next, _tmp2_index)
    _, tmp2_tmp = max_with_index(_tmp2, _tmp2_index, 1)
    tmp2 = tmp2_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        xnumel, rnumel = x.shape
        buf0 = torch.empty((xnumel,), device=x.device, dtype=torch.int64)
        XBLOCK = 4
        RBLOCK = min(1024, triton.next_power_of_2(rnumel))
        triton_red_fused_argmax_0[(triton.cdiv(xnumel, XBLOCK),)](x, buf0, xnumel, rnumel,
                                                                   XBLOCK=XBLOCK, RBLOCK=RBLOCK, num_warps=8)
        return buf0
