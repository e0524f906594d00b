# honest: softplus as max(x, 0) + log1p(exp(-|x|)) with log1p(u) = 2 atanh(u / (2 + u)) summed as an odd series whose Horner constants 2 / (2k + 1) (k < 10) are computed in a list and handed as a tuple constexpr. problem: activation/softplus. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl

# log1p(u) = 2 * sum z**(2k+1) / (2k+1),  z = u / (2 + u) <= 1/3 for u in [0, 1]
ATANH_COEFFS = tuple(2.0 / (2 * k + 1) for k in range(10))


@triton.jit
def _log1p_unit(u, C: tl.constexpr):
    z = u / (2.0 + u)
    z2 = z * z
    p = z2 * 0.0 + C[9]
    p = p * z2 + C[8]
    p = p * z2 + C[7]
    p = p * z2 + C[6]
    p = p * z2 + C[5]
    p = p * z2 + C[4]
    p = p * z2 + C[3]
    p = p * z2 + C[2]
    p = p * z2 + C[1]
    p = p * z2 + C[0]
    return p * z


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, C: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) + _log1p_unit(tl.exp(-tl.abs(x)), C)
    y = tl.where(x > 20.0, x, y)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 1024),)](x, y, n, C=ATANH_COEFFS, BLOCK=1024)
        return y
