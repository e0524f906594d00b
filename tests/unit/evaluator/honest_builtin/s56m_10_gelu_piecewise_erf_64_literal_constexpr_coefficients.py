# honest: exact GELU through a libm-style piecewise erf, eight degree-7 polynomials on half-unit intervals of |z| whose 64 coefficients are typed by hand as module-level tl.constexpr globals (Triton 3.x admits no other global numbers) and chosen by a tl.where chain, evaluated by Horner. Refused as host_compute (65 values) before s56m: globals typed as literals are the kernel's own numbers, as literals in its body are. problem: activation/gelu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl

# erf on [0, 4) as eight degree-7 polynomials in (|z| - centre), one per half-unit interval,
# Chebyshev-node least-squares fits (max error ~1e-8 per piece); erf(|z| >= 4) = 1 in float32.
E0_0 = tl.constexpr(0.27632638904300905)
E0_1 = tl.constexpr(1.0600141280066437)
E0_2 = tl.constexpr(-0.2650029552566089)
E0_3 = tl.constexpr(-0.30917049521371837)
E0_4 = tl.constexpr(0.12693456251605836)
E0_5 = tl.constexpr(0.08003626587740469)
E0_6 = tl.constexpr(-0.039340795085916015)
E0_7 = tl.constexpr(-0.015803370483044428)
E1_0 = tl.constexpr(0.7111556333761688)
E1_1 = tl.constexpr(0.6429310712735458)
E1_2 = tl.constexpr(-0.4821981599865361)
E1_3 = tl.constexpr(0.026788350512690597)
E1_4 = tl.constexpr(0.1506756288335138)
E1_5 = tl.constexpr(-0.05321708868369647)
E1_6 = tl.constexpr(-0.026582829992031917)
E1_7 = tl.constexpr(0.017885491451149836)
E2_0 = tl.constexpr(0.9229001289224571)
E2_1 = tl.constexpr(0.23652112200257389)
E2_2 = tl.constexpr(-0.2956517444717632)
E2_3 = tl.constexpr(0.16753589028335353)
E2_4 = tl.constexpr(-0.00613203498461819)
E2_5 = tl.constexpr(-0.047186553993726656)
E2_6 = tl.constexpr(0.02059773656663579)
E2_7 = tl.constexpr(0.0037451107785547127)
E3_0 = tl.constexpr(0.9866716711394665)
E3_1 = tl.constexpr(0.052774995451063)
E3_2 = tl.constexpr(-0.09235620183119604)
E3_3 = tl.constexpr(0.09015738692805822)
E3_4 = tl.constexpr(-0.0481055245534946)
E3_5 = tl.constexpr(0.006618473111814318)
E3_6 = tl.constexpr(0.009049494682893466)
E3_7 = tl.constexpr(-0.005933099366956459)
E4_0 = tl.constexpr(0.9985372832943981)
E4_1 = tl.constexpr(0.0071423192148617354)
E4_2 = tl.constexpr(-0.016070156903955024)
E4_3 = tl.constexpr(0.02172451248297309)
E4_4 = tl.constexpr(-0.019088256319288)
E4_5 = tl.constexpr(0.01066005955255809)
E4_6 = tl.constexpr(-0.0027795651141387444)
E4_7 = tl.constexpr(-0.0007215275142559584)
E5_0 = tl.constexpr(0.9998993780875715)
E5_1 = tl.constexpr(0.0005862772865929654)
E5_2 = tl.constexpr(-0.0016122674205079172)
E5_3 = tl.constexpr(0.0027603802970165717)
E5_4 = tl.constexpr(-0.0032577104525490803)
E5_5 = tl.constexpr(0.0027562910468824013)
E5_6 = tl.constexpr(-0.0016678505312437081)
E5_7 = tl.constexpr(0.0006358149269157003)
E6_0 = tl.constexpr(0.9999956972303051)
E6_1 = tl.constexpr(2.9189011737440306e-05)
E6_2 = tl.constexpr(-9.4869333094834e-05)
E6_3 = tl.constexpr(0.00019581262792526036)
E6_4 = tl.constexpr(-0.00028616943425141826)
E6_5 = tl.constexpr(0.0003136289040854693)
E6_6 = tl.constexpr(-0.00027375839064894394)
E6_7 = tl.constexpr(0.00017359606834965925)
E7_0 = tl.constexpr(0.9999998862741138)
E7_1 = tl.constexpr(8.814288650140862e-07)
E7_2 = tl.constexpr(-3.30607086770047e-06)
E7_3 = tl.constexpr(7.970326189050405e-06)
E7_4 = tl.constexpr(-1.3785412685460663e-05)
E7_5 = tl.constexpr(1.833010624853241e-05)
E7_6 = tl.constexpr(-2.0692384131961856e-05)
E7_7 = tl.constexpr(1.71443318911181e-05)

INV_SQRT2 = tl.constexpr(0.7071067811865476)


@triton.jit
def _erf_piecewise(z):
    a = tl.minimum(tl.abs(z), 3.999999)
    seg = (a * 2.0).to(tl.int32)
    t = a - (seg.to(tl.float32) * 0.5 + 0.25)
    c0 = tl.where(seg == 0, E0_0, tl.where(seg == 1, E1_0, tl.where(seg == 2, E2_0, tl.where(seg == 3, E3_0, tl.where(seg == 4, E4_0, tl.where(seg == 5, E5_0, tl.where(seg == 6, E6_0, E7_0)))))))
    c1 = tl.where(seg == 0, E0_1, tl.where(seg == 1, E1_1, tl.where(seg == 2, E2_1, tl.where(seg == 3, E3_1, tl.where(seg == 4, E4_1, tl.where(seg == 5, E5_1, tl.where(seg == 6, E6_1, E7_1)))))))
    c2 = tl.where(seg == 0, E0_2, tl.where(seg == 1, E1_2, tl.where(seg == 2, E2_2, tl.where(seg == 3, E3_2, tl.where(seg == 4, E4_2, tl.where(seg == 5, E5_2, tl.where(seg == 6, E6_2, E7_2)))))))
    c3 = tl.where(seg == 0, E0_3, tl.where(seg == 1, E1_3, tl.where(seg == 2, E2_3, tl.where(seg == 3, E3_3, tl.where(seg == 4, E4_3, tl.where(seg == 5, E5_3, tl.where(seg == 6, E6_3, E7_3)))))))
    c4 = tl.where(seg == 0, E0_4, tl.where(seg == 1, E1_4, tl.where(seg == 2, E2_4, tl.where(seg == 3, E3_4, tl.where(seg == 4, E4_4, tl.where(seg == 5, E5_4, tl.where(seg == 6, E6_4, E7_4)))))))
    c5 = tl.where(seg == 0, E0_5, tl.where(seg == 1, E1_5, tl.where(seg == 2, E2_5, tl.where(seg == 3, E3_5, tl.where(seg == 4, E4_5, tl.where(seg == 5, E5_5, tl.where(seg == 6, E6_5, E7_5)))))))
    c6 = tl.where(seg == 0, E0_6, tl.where(seg == 1, E1_6, tl.where(seg == 2, E2_6, tl.where(seg == 3, E3_6, tl.where(seg == 4, E4_6, tl.where(seg == 5, E5_6, tl.where(seg == 6, E6_6, E7_6)))))))
    c7 = tl.where(seg == 0, E0_7, tl.where(seg == 1, E1_7, tl.where(seg == 2, E2_7, tl.where(seg == 3, E3_7, tl.where(seg == 4, E4_7, tl.where(seg == 5, E5_7, tl.where(seg == 6, E6_7, E7_7)))))))
    p = ((((((c7 * t + c6) * t + c5) * t + c4) * t + c3) * t + c2) * t + c1) * t + c0
    p = tl.where(tl.abs(z) >= 4.0, 1.0, p)
    return tl.where(z < 0, -p, p)


@triton.jit
def gelu_piecewise_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + _erf_piecewise(x * INV_SQRT2))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_piecewise_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
