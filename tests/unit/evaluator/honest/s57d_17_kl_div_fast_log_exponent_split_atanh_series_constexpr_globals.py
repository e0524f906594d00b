# honest: KL divergence (batchmean) with its own logarithm, as fast-math ports of logf write it: the target's float32 bits split into exponent ((bits >> 23) & 0xFF) - 127 and mantissa (bits & 0x7FFFFF | 0x3F800000), the mantissa moved into [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) with s = (m - 1)/(m + 1) by a five-term odd series whose coefficients (2, 2/3, 2/5, 2/7, 2/9) and LN2, SQRT2 are tl.constexpr globals; xlogy's convention (0 where the target is 0); per-row partial sums in a buffer, a second kernel divides their sum by the batch. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl

LN2 = tl.constexpr(0.6931471805599453)
SQRT2 = tl.constexpr(1.4142135623730951)
ATANH_C1 = tl.constexpr(2.0)
ATANH_C3 = tl.constexpr(0.6666666666666666)
ATANH_C5 = tl.constexpr(0.4)
ATANH_C7 = tl.constexpr(0.2857142857142857)
ATANH_C9 = tl.constexpr(0.2222222222222222)
EXP_MASK = tl.constexpr(0xFF)
MANT_MASK = tl.constexpr(0x7FFFFF)
ONE_BITS = tl.constexpr(0x3F800000)


@triton.jit
def _fast_log(x):
    bits = x.to(tl.int32, bitcast=True)
    e = ((bits >> 23) & EXP_MASK) - 127
    m = ((bits & MANT_MASK) | ONE_BITS).to(tl.float32, bitcast=True)
    big = m > SQRT2
    m = tl.where(big, m * 0.5, m)
    e = tl.where(big, e + 1, e)
    s = (m - 1.0) / (m + 1.0)
    s2 = s * s
    p = s * (ATANH_C1 + s2 * (ATANH_C3 + s2 * (ATANH_C5 + s2 * (ATANH_C7 + s2 * ATANH_C9))))
    return e.to(tl.float32) * LN2 + p


@triton.jit
def _kl_rows(pred_ptr, tgt_ptr, part_ptr, n_cols, stride_p, stride_t, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        lp = tl.load(pred_ptr + row * stride_p + cols, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(tgt_ptr + row * stride_t + cols, mask=mask, other=0.0).to(tl.float32)
        safe = tl.where(t > 0, t, 1.0)
        acc += tl.where(t > 0, t * (_fast_log(safe) - lp), 0.0)
    tl.store(part_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _finish(part_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_rows, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_rows)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        n_rows, n_cols = predictions.shape
        partial = torch.empty(n_rows, device=predictions.device, dtype=torch.float32)
        out = torch.empty((), device=predictions.device, dtype=torch.float32)
        BLOCK = min(2048, triton.next_power_of_2(n_cols))
        _kl_rows[(n_rows,)](predictions, targets, partial, n_cols, predictions.stride(0), targets.stride(0),
                            BLOCK=BLOCK)
        _finish[(1,)](partial, out, n_rows, BLOCK=256)
        return out
