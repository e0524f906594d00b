"""A scaled trial on which the problem's own forward overflows (and its base trial does not) is
judged everywhere but where the order of the products decides: an honest blocked scan
multiplies in another order than torch's sequential cumprod, and where a product overflows,
inf x 0 is NaN in one order and 0 in the other (KernelBench level1/90_cumprod at scale 1e3 was
`incorrect` on the H200, session 23). A scan that writes zeros where the reference overflowed
is still wrong (red team rt23b)."""
from __future__ import annotations

import torch
from conftest import fixture_problem

from evaluator.judge import _overflow_agreed
from evaluator.reference_phase import _unjudged_overflow

_SCAN = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _cumprod(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 1.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=1.0)
        p = tl.associative_scan(x, 0, _mul) * carry  # the block's own products first
        tl.store(y_ptr + row * n_cols + cols, p, mask=cols < n_cols)
        carry = tl.sum(tl.where(cols == start + BLOCK - 1, p, 0.0), axis=0)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        _cumprod[(x.shape[0],)](x, y, x.shape[1], BLOCK=32)
        return y
'''


def test_an_honest_blocked_cumprod_is_ok_where_the_scaled_reference_overflows(evaluator, settings):
    verdict = evaluator.evaluate(fixture_problem("cumprod_zeros"), _SCAN, settings)
    assert verdict.status == "ok", verdict.feedback
    overflowed = [t["inputs"] for t in verdict.details["trials"] if t.get("overflow")]
    assert overflowed == ["scale:1e3"]


def test_a_cumprod_wrong_on_base_inputs_is_still_incorrect(evaluator, settings):
    wrong = _SCAN.replace("* carry  #", "* carry * 1.001  #")
    verdict = evaluator.evaluate(fixture_problem("cumprod_zeros"), wrong, settings)
    assert verdict.status == "incorrect", verdict.feedback


def _trial(transform: str, finite: bool) -> dict:
    return {"transform": transform, "facts": [{"finite": finite}]}


def test_only_scaled_trials_that_overflow_where_the_base_did_not_are_marked():
    trials = [_trial("base", True), _trial("scale:1e3", False), _trial("scale:1e-3", True),
              _trial("shift:10", False), _trial("spike", False)]
    _unjudged_overflow(trials, [[None]] * 5, [[]] * 5)
    assert [t.get("finite") for t in trials] == [None, False, None, False, None]
    inf_base = [_trial("base", False), _trial("scale:1e3", False)]
    _unjudged_overflow(inf_base, [[None]] * 2, [[]] * 2)  # infinities of the problem's own: judged
    assert [t.get("finite") for t in inf_base] == [None, None]


def test_on_an_overflowing_trial_only_what_the_order_of_products_decides_is_not_judged():
    inf, nan = float("inf"), float("nan")
    ref = torch.tensor([0.0, inf, nan, inf, 2.0])
    out = torch.tensor([nan, nan, 5.0, 0.0, nan])
    agreed = _overflow_agreed(out, ref)
    # NaN for 0 or inf, anything for NaN: the reference's; zero for inf and NaN for 2: judged
    assert torch.equal(agreed[:3].nan_to_num(), ref[:3].nan_to_num())
    assert agreed[3] == 0.0 and torch.isnan(agreed[4])
