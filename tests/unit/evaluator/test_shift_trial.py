"""norm/layernorm's `shift:1e3` trial (red team s69H, session 69): LayerNorm is judged on
rows with a common offset of 1e3 beside randn's spread of 1, where float32 still
holds ~4 digits of each centred value. A two-pass or Welford variance keeps them and meets the
bounds (the reference's own rounding, which grows with the offset, floors them); a one-pass
E[x^2] - E[x]^2 cancels there and does not. GroupNorm is measured here too but does not list
the trial (a policy: one-pass group statistics are the public idiom, Liger-Kernel's group_norm
and eight files of the honest corpora, while none of 27 honest layernorms is one-pass; see
docs/threat_model.md). Judged in process with the worker's own `match` and
the reference child's noise measurement, on torch stand-ins for the kernels' arithmetic."""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from common.config.evaluator import EvaluatorConfig
from common.problemset import builtin_problem
from evaluator import judge, noise
from evaluator.input_transforms import transform_inputs
from evaluator.precision import float64_twin

SHIFT = "shift:1e3"


def test_layernorm_lists_the_shift_trial_beside_the_defaults():
    """The problem's own list replaces the configured trials (reference.make_plan): it keeps
    every default one and adds the shift."""
    listed = builtin_problem("norm/layernorm").distributions
    assert listed is not None and SHIFT in listed
    assert set(EvaluatorConfig().correctness.distributions) <= set(listed)


def _moments(rows: torch.Tensor, how: str, chunk: int = 256) -> tuple[torch.Tensor, torch.Tensor]:
    """Per row (float32 throughout): the mean and the variance as a kernel forms them. 'two_pass':
    a mean, then the centred squares; 'welford': chunk statistics merged in order (Chan's
    update); 'one_pass': sums of x and x*x, var = E[x^2] - E[x]^2 (clamped at 0)."""
    n = rows.shape[1]
    if how == "two_pass":
        mean = rows.sum(1) / n
        return mean, ((rows - mean[:, None]) ** 2).sum(1) / n
    if how == "one_pass":
        mean = rows.sum(1) / n
        return mean, torch.clamp((rows * rows).sum(1) / n - mean * mean, min=0.0)
    count, mean, m2 = 0, torch.zeros_like(rows[:, 0]), torch.zeros_like(rows[:, 0])
    for part in rows.split(chunk, dim=1):
        k = part.shape[1]
        m_b = part.sum(1) / k
        m2_b = ((part - m_b[:, None]) ** 2).sum(1)
        delta, total = m_b - mean, count + k
        mean = mean + delta * (k / total)
        m2 = m2 + m2_b + delta * delta * (count * k / total)
        count = total
    return mean, m2 / n


def _kernel_layernorm(norm: nn.LayerNorm, x: torch.Tensor, how: str) -> torch.Tensor:
    mean, var = _moments(x, how)
    return (x - mean[:, None]) * torch.rsqrt(var + norm.eps)[:, None] * norm.weight + norm.bias


def _kernel_groupnorm(gn: nn.GroupNorm, x: torch.Tensor, how: str) -> torch.Tensor:
    b, c = x.shape[:2]
    rows = x.reshape(b * gn.num_groups, -1)
    mean, var = _moments(rows, how)
    y = ((rows - mean[:, None]) * torch.rsqrt(var + gn.eps)[:, None]).reshape(x.shape)
    shape = (1, c) + (1,) * (x.dim() - 2)
    return y * gn.weight.reshape(shape) + gn.bias.reshape(shape)


def _verdicts(name: str) -> dict[str, bool]:
    """Whether each variance's output matches the reference on the shift trial, at the CPU sizes."""
    problem = builtin_problem(name)
    space: dict = {}
    exec(compile(problem.source, name, "exec"), space)  # noqa: S102  (the trusted problem's own file)
    space.update(problem.sizes.get("cpu") or {})
    torch.manual_seed(3)
    model = space["Model"](*space["get_init_inputs"]())
    torch.manual_seed(4)
    inputs, applied = transform_inputs(space["get_inputs"](), SHIFT, seed=4)
    assert applied == SHIFT
    with torch.no_grad():
        ref = model(*inputs)
        floor = noise.noise_norms(lambda xs: ((model(*xs),), None), [t.clone() for t in inputs], [ref],
                                  lambda xs: ((float64_twin(model)(*xs),), None))
        kernel, module = ((_kernel_layernorm, model.norm) if name == "norm/layernorm"
                          else (_kernel_groupnorm, model.gn))
        return {how: judge.match(kernel(module, inputs[0], how), ref, None, EvaluatorConfig(), None,
                                 noise=floor[0]) is None
                for how in ("two_pass", "welford", "one_pass")}


@pytest.mark.parametrize("name", ["norm/layernorm", "norm/groupnorm"])
def test_a_centred_variance_passes_the_shift_trial_and_a_one_pass_variance_does_not(name):
    """At 1e3 + randn a one-pass variance loses ~6 of float32's 24 bits to the cancellation of
    two ~1e6 sums: 3-6x the norm bound at the CPU sizes (measured on the corpus's one-pass
    kernels under the interpreter), while PyTorch's and a centred kernel's answers hold."""
    assert _verdicts(name) == {"two_pass": True, "welford": True, "one_pass": False}
