"""A built-in problem's answer must move with its inputs at the GPU sizes, past float32's
tolerance: where it does not, gates.fixed_answer pays only correctness (no test can tell
computing it from writing it), and every honest kernel earns 0.5 there whatever its speed.
Honest round s56 (H100): cosine_loss of two independent randn tensors is 1 +- 2e-4 at
4096 x 8192, so honest/s55_17 was ok at reward 0.500 with a speedup of 1.79 and coverage 0.95."""
from __future__ import annotations

import importlib.util

import pytest
import torch

from common.problemset import builtin_problem

FLOAT32_ELEMENT_TOLERANCE = 2e-4  # atol 1e-4 + rtol 1e-4 at |ref| 1


@pytest.mark.parametrize("name", ["loss/cosine_loss"])
def test_a_scalar_loss_moves_with_its_draw_at_the_gpu_size(name):
    problem = builtin_problem(name)
    spec = importlib.util.spec_from_loader("problem", loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(problem.source, name, "exec"), module.__dict__)
    for size, value in (problem.sizes.get("cuda") or {}).items():
        setattr(module, size, value)
    answers = []
    with torch.no_grad():
        for seed in range(3):
            torch.manual_seed(seed)
            model = module.Model(*module.get_init_inputs())
            answers.append(float(model(*module.get_inputs())))
    assert max(answers) - min(answers) > 100 * FLOAT32_ELEMENT_TOLERANCE, answers
