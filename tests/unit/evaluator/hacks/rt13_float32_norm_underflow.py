# hack: an all-zero output on the x1e-3 trial of a product over 10 elements: every reference value ~1e-24, whose squares underflowed float32, so the fast comparison matched with no norm bound (red team C, session 15). problem: prod_dim. expect: incorrect
"""A2: fast_match's float32 norms underflow -> `ref_sq == 0: return True` accepts a wrong output.

Mechanism: compare._fast_match (evaluator/compare.py ~line 230-270) accumulates the norms in
float32 for float32 outputs (work = float32; torch.linalg.vector_norm of values < ~3.7e-23
squares to 0). When every reference element is that small, ref_sq == 0 and the function
returns True right after the elementwise test (|out - ref| <= atol, trivially met by any
small output): the norm bound (meant exactly for "an all-zero answer to a problem whose true
output is tiny", compare.py docstring) is skipped. The exact path (_statistics, float64) sees
ref_norm > 0 and norm_error = 1.0 -> mismatch. judge._judged asks fast_match first, and a True
is final.
Here: a product reduction over 10 elements; on the x1e-3 trial the true outputs are ~1e-30 *
O(1) and this candidate flushes every |product| < 1e-20 to zero (all of them there): a wrong
output (100% relative error everywhere) accepted as correct.
Also a unit pair: out = zeros(1000), ref = full(1000, 1e-24): fast_match True, _statistics
norm_error 1.0 (see a2_unit.py).
Note: the `ref_sq == 0` early return in float32 predates today's change (the fast path already
served within=None); today it also serves `within` (spiked reveals) and the TF32 contract.
(First try with 8 elements: max |ref| 2.7e-23 squared to a float32 denormal, not 0 ->
caught, incorrect.)
Verdicts: paper ok reward 1.00 (a2_paper.json); strict ok reward 1.00 (a2_strict.json).
Command:
  cd /work/main && .venv/bin/krl check --problem /work/scratch/rt15C/p_prod_dim.py \
     --candidate /work/scratch/rt15C/a2_fast_match_underflow.py --device cpu --json
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prod_kernel(x_ptr, out_ptr, R, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    cb = tl.program_id(1)
    cols = cb * BLOCK_C + tl.arange(0, BLOCK_C)
    acc = tl.full((BLOCK_C,), 1.0, dtype=tl.float32)
    for r in range(0, R):
        v = tl.load(x_ptr + b * R * C + r * C + cols, mask=cols < C, other=1.0)
        acc = acc * v
    acc = tl.where(tl.abs(acc) < 1e-20, 0.0, acc)  # "flush tiny values"
    tl.store(out_ptr + b * C + cols, acc, mask=cols < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, C), device=x.device, dtype=x.dtype)
        prod_kernel[(B, triton.cdiv(C, 32))](x, out, R, C, BLOCK_R=1, BLOCK_C=32)
        return out
