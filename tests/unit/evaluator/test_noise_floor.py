"""The reference's own noise and the floor it sets under the norm and residual bounds
(evaluator/noise.py, evaluator/noise_floor.py, Tolerance.noise): how it is measured (inputs
moved by a few ulp, the same forward in float64 on a twin of the model), how much each
measurement counts, and where the float64 twin is too big to run."""
from __future__ import annotations

import pytest
import torch

from evaluator.noise_floor import NOISE_FLOOR, noise_pair


def test_the_noise_floor_lifts_the_norm_bounds_only_to_the_references_noise():
    """Tolerance.noise: an absolute floor under the norm and residual bounds (the reference's
    own noise times noise_floor.NOISE_FLOOR), in the fast and the exact judgement alike."""
    from dataclasses import replace

    from evaluator import compare as C
    g = torch.Generator().manual_seed(1)
    ref = 1e-8 * torch.randn(4096, generator=g)  # rounding noise around a true zero
    out = 1e-8 * torch.randn(4096, generator=g)
    tol = C.Tolerance(atol=1e-4, rtol=1e-4, norm_rtol=5e-3, residual_rtol=1.5e-4)
    noise = float(torch.linalg.vector_norm(ref))
    assert not C.fast_match(out, ref, tol) and C.compare(out, ref, tol) is not None
    floored = replace(tol, noise=NOISE_FLOOR * noise, noise_residual=NOISE_FLOOR * noise)
    assert C.fast_match(out, ref, floored) and C.compare(out, ref, floored, fast=False) is None
    assert C.compare(out + 1e-5, ref, floored) is not None  # far more than noise: still wrong


def test_the_float64_measurement_of_the_references_noise_counts_at_its_own_weight():
    """noise.noise_norms sends [moved norm, moved residual, float64 norm, float64 residual, float64
    max] (the last: the elementwise floor, test_an_honest_summation_order below); the
    float64 one is the reference's rounding error itself and floors the bounds at WIDE_FLOOR
    times it, the moved one at NOISE_FLOOR times it; the larger floor holds, part by part."""
    from evaluator.noise_floor import WIDE_FLOOR

    k = WIDE_FLOOR / NOISE_FLOOR
    assert noise_pair([1e-9, 2e-10]) == (1e-9, 2e-10)  # a reference cached before session 27
    assert noise_pair([1e-9, 2e-10, 1e-8, 0.0]) == (k * 1e-8, 2e-10)
    assert noise_pair([0.0, 0.0, 1e-8, 1e-9]) == (k * 1e-8, k * 1e-9)  # no moved measurement
    assert noise_pair([0.0, 0.0, 0.0, 0.0]) is None and noise_pair([1e-9, float("nan"), 1e-8, 0.0]) is None
    assert noise_pair([1e-9, 0.0, -1.0, 0.0]) is None and noise_pair([True, 0.0]) is None


def test_the_references_noise_is_measured_where_moving_its_inputs_redraws_no_rounding():
    """KernelBench level2/23 on its x1e-3 trial: a bias much larger than the input's share of a
    sum, so moving the input by a few ulp leaves most roundings as they were and the moved
    measurement sees a fraction of the noise (1/125 of it in a draw of 120); the same forward in
    float64 (on a twin of the model) sees the rounding itself, and the model is as it was."""
    from evaluator.noise import noise_norms
    from evaluator.precision import float64_twin

    class Centred(torch.nn.Module):  # a bias of 1 beside an input of 1e-3: the mean taken away is ~0
        def __init__(self):
            super().__init__()
            self.bias = torch.nn.Parameter(torch.linspace(0.5, 1.5, 512))

        def forward(self, x):
            h = x + self.bias
            return ((h - h.mean(dim=1, keepdim=True)) / h.std(dim=1, keepdim=True)).mean(dim=1)

    model = Centred()
    x = 1e-3 * torch.rand(4, 512, generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        out = model(x)
        exact = model.double()(x.double()).float()
    model.float()
    keep = model.bias.detach().clone()
    def forward(xs: list) -> tuple:
        with torch.no_grad():
            return [model(*xs)], []

    def wide_forward(xs: list) -> tuple:
        with torch.no_grad():
            return [float64_twin(model)(*xs)], []

    moved_norm, _, wide_norm, _, wide_max = noise_norms(forward, [x.clone()], [out], wide_forward)[0]
    assert wide_norm == pytest.approx(float(torch.linalg.vector_norm(out.double() - exact.double())), rel=1e-6)
    assert wide_norm > 8 * moved_norm  # the moved measurement misses most of it here
    assert wide_max == pytest.approx(float((out.double() - exact.double()).abs().max()), rel=1e-6)
    assert model.bias.dtype == torch.float32 and torch.equal(model.bias, keep)


def test_the_float64_twin_runs_only_where_its_tensors_fit_the_cap():
    """The wide (float64) noise measurement doubles the problem's tensors in the reference
    child: on the H200 a 1 GiB level-1 input lost the child. Past noise.WIDE_MAX_BYTES the moved
    measurement stands alone."""
    from evaluator import noise

    small = [torch.zeros(1024, 1024)]                      # 8 MiB in float64
    model = torch.nn.Linear(1024, 1024)
    assert noise.wide_affordable(small, small, model)
    big = [torch.empty(noise.WIDE_MAX_BYTES // 8 + 1, dtype=torch.float32)]
    assert not noise.wide_affordable(big, small, model)
    assert not noise.wide_affordable(small, big, None)
    assert noise.wide_affordable([torch.zeros(8, dtype=torch.int64)] * 3, small, object())


def test_an_answer_with_no_correct_digit_floors_the_residual_by_its_whole_error():
    """KernelBench level2/23 on its x1e-3 trial: the float64 answer is ~0 and the float32
    reference is its own rounding error, a common factor of itself, so the error's residual
    part was ~1e-16 and another honest kernel's rounding (another direction) failed the
    residual bound now and then. Such an output's whole error floors both parts; an answer with
    digits (x / ||x||: its noise is a common factor too, red team D of session 16) keeps its
    small residual."""
    from evaluator.noise import wide_norms

    g = torch.Generator().manual_seed(5)
    noise_only = 1e-8 * torch.randn(2, generator=g)  # float32 rounding around an exact 0
    zero = torch.zeros(2, dtype=torch.float64)
    [(norm, res, _)] = wide_norms(lambda xs: ([zero], []), [torch.ones(1)], [noise_only])
    assert norm == pytest.approx(float(torch.linalg.vector_norm(noise_only.double())))
    assert res == norm

    x = torch.randn(4096, generator=g, dtype=torch.float64)
    unit = x / torch.linalg.vector_norm(x)
    rounded = (unit * (1 + 3e-7)).float()  # the norm's rounding: one common factor
    [(norm, res, _)] = wide_norms(lambda xs: ([unit], []), [torch.ones(1)], [rounded])
    assert norm > 0 and res < 0.2 * norm  # its float32 rounding per element, not the common factor


def test_an_honest_summation_order_meets_the_elementwise_bound_and_a_float16_one_does_not():
    """noise_floor.element_floor: a float32 sum over 2048 terms of ~1e3 (KernelBench sum_dim's
    x1e3 trial) that cancels to a few hundred, summed in blocks of two added in order
    (tritonbench's sum kernel, incorrect on the H200 in session 54), lands ~0.2 from PyTorch's
    answer, past atol x 1e3 + rtol |ref|; with the reference's worst rounding (its float64
    twin's answer) as the elementwise floor it matches, while the same sum accumulated in
    float16, and a sum that drops one term in 2048, stay incorrect."""
    from dataclasses import replace

    from evaluator import compare as C
    from evaluator.noise import noise_norms
    from evaluator.noise_floor import element_floor, floored

    g = torch.Generator().manual_seed(5)
    x = 1e3 * torch.randn(4, 2048, 512, generator=g)
    x[:, -1] = 0.0
    x[:, -1] = 300.0 * torch.randn(4, 512, generator=g) - x.double().sum(1).float()  # cancels to ~300
    ref = x.sum(1)
    blocks = x.view(4, 1024, 2, 512).sum(2)
    honest = torch.zeros_like(ref)
    for i in range(1024):  # the kernel's order: a running float32 sum of two-term blocks
        honest += blocks[:, i]
    tol = C.Tolerance(atol=1e-4, rtol=1e-4, norm_rtol=5e-3, residual_rtol=1.5e-4)
    noise = noise_norms(lambda xs: ([xs[0].sum(1)], []), [x.clone()], [ref],
                        lambda xs: ([xs[0].sum(1)], []))[0]
    assert len(noise) == 5 and element_floor(noise) == 16.0 * noise[4] > 0
    assert C.compare(honest, ref, replace(floored(tol, noise), atol_floor=0.0), 1e3, fast=False) is not None
    assert C.compare(honest, ref, floored(tol, noise), 1e3, fast=False) is None
    half = torch.zeros_like(ref, dtype=torch.float16)
    for i in range(1024):
        half += (blocks[:, i] / 1e3).half()
    assert C.compare(half.float() * 1e3, ref, floored(tol, noise), 1e3, fast=False) is not None
    short = ref - x[:, 7]  # one term in 2048 left out
    assert C.compare(short, ref, floored(tol, noise), 1e3, fast=False) is not None
    assert element_floor([1e-9, 0.0, 1e-8, 0.0]) == 0.0  # a reference measured before session 54
    assert element_floor([1e-9, 0.0, 1e-8, 0.0, float("nan")]) == 0.0
